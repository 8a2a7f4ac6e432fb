"""TOML files as the device reads them (the config, the league file): each parsed once for the same
bytes, and — in the folder ``keep_parses_in`` names (the service's state directory under systemd)
— kept parsed for the next start, so a start with its files unchanged byte for byte neither
parses them nor imports tomllib (docs/install.md, "Boot ordering": the import alone is ~3 ms of a
PC's CPU, ten times that on a Pi Zero 2 W-class core, and a season's league file takes longer to
parse than that). A file is read at every call: its bytes, not its time stamps, say it is unchanged.

The kept file maps each file's path to its bytes and its tables as last parsed, and is taken only
for the same bytes: one that does not read as such is ignored and replaced, one torn by a power
cut too. It holds the files that are still there. TOML dates and times (a league's fixtures),
which marshal cannot hold, are kept as ("date" | "datetime" | "time", ISO text) pairs — a TOML
document has no tuples of its own — and made again when a kept parse is taken.
"""
import marshal
import os

Tables = dict[str, object]      # (not typing's Any: typing is not imported before the counter is lit)

KEPT = "boot-config.marshal"
DATE_TYPES = ("date", "datetime", "time")
KEEP_AT_MOST = 8        # files: the service reads two (the config, the league file)

_parsed: dict[str, tuple[bytes, Tables]] | None = None     # path -> (bytes, tables): kept or parsed
_folder: str | None = None                                  # where they are kept (keep_parses_in)


def keep_parses_in(folder: str | None) -> None:
    """Keep parses in ``folder`` (None: in this process only, the default) from now on."""
    global _folder, _parsed
    _folder, _parsed = folder, None


def read(path: str | os.PathLike[str]) -> Tables:
    """The tables of the TOML file ``path``. Raises what reading and tomllib raise: OSError (missing,
    unreadable), ValueError (not UTF-8, not TOML: UnicodeDecodeError, tomllib.TOMLDecodeError),
    RecursionError (arrays or tables nested too deeply)."""
    path = os.fspath(path)
    with open(path, "rb") as fh:
        data = fh.read()
    parsed = _parses().get(path)
    if parsed is not None and parsed[0] == data:
        return parsed[1]
    import tomllib

    doc = tomllib.loads(data.decode("utf-8"))
    _keep(path, data, doc)
    return doc


def _place() -> str | None:
    return os.path.join(_folder, KEPT) if _folder else None


def _parses() -> dict[str, tuple[bytes, Tables]]:
    """This process's parses, those of the kept file to begin with."""
    global _parsed
    if _parsed is None:
        _parsed = {}
        place = _place()
        try:
            if place is not None:
                with open(place, "rb") as fh:
                    loaded = marshal.load(fh)
                _parsed = {p: (v[0], _dated_tables(v[1]) if v[2] else v[1]) for p, v in loaded.items()
                           if isinstance(p, str) and isinstance(v, tuple) and len(v) == 3
                           and isinstance(v[0], bytes) and isinstance(v[1], dict)}
        except (OSError, EOFError, ValueError, TypeError, AttributeError):    # none yet, or not ours
            _parsed = {}
    return _parsed


def _keep(path: str, data: bytes, doc: Tables) -> None:
    """Keep this parse, in the kept file beside those of the other files still there (never fails
    the read)."""
    global _parsed
    parses = {p: v for p, v in _parses().items() if p != path}
    parses[path] = (data, doc)
    while len(parses) > KEEP_AT_MOST:       # the oldest first
        del parses[next(iter(parses))]
    _parsed = parses
    place = _place()
    if place is None:
        return
    kept = {p: _keepable(*v) for p, v in parses.items() if os.path.exists(p)}
    tmp = f"{place}.{os.getpid()}"
    try:        # whole or not at all, for a start that reads it meanwhile; no fsync: a cache
        with open(tmp, "wb") as fh:
            marshal.dump(kept, fh)
        os.replace(tmp, place)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _keepable(data: bytes, doc: Tables) -> tuple[bytes, Tables, bool]:
    """(bytes, tables, whether dates were made pairs) as the kept file holds them."""
    try:
        marshal.dumps(doc)
    except ValueError:                  # a TOML date or time
        return data, {key: _undated(item) for key, item in doc.items()}, True
    return data, doc, False


def _dated_tables(doc: Tables) -> Tables:
    return {key: _dated(item) for key, item in doc.items()}


def _undated(value: object) -> object:
    import datetime  # imported by tomllib, which made these dates

    if isinstance(value, dict):
        return {key: _undated(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_undated(item) for item in value]
    if isinstance(value, (datetime.date, datetime.time)):        # a datetime is a date too
        return (type(value).__name__, value.isoformat())
    return value


def _dated(value: object) -> object:
    if isinstance(value, dict):
        return {key: _dated(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_dated(item) for item in value]
    if isinstance(value, tuple):
        import datetime

        kind, text = value
        if kind not in DATE_TYPES:
            raise ValueError(f"not a kept date: {kind!r}")
        return getattr(datetime, kind).fromisoformat(text)
    return value
