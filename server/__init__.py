"""The league's receiver and site, in wings (docs/architecture.md): league, storage, tables, ingest, site, live; app.py builds the ASGI application, http_server.py serves it."""
