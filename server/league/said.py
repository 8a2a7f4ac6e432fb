"""A refusal worded for people: its English text is a template and the values that fill it, so the
site can say it in Czech from its catalog (server/site/words.py) and the command line in English."""


class Said(ValueError):
    """``Said("no team {team!r} in {season}", team=..., season=...)``: ``str()`` is the English text.
    ``site``: values the site says otherwise than the English text (a rule's Czech label for its key)."""

    def __init__(self, template: str, *, site: dict | None = None, **values):
        super().__init__(template.format(**values) if values else template)
        self.template, self.values = template, values
        self.site_values = {**values, **(site or {})}
