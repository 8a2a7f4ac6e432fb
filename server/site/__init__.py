"""The league's web site and API: Starlette routes, pages and templates, the admin, access checks."""
