"""`pocitadlo server ACTION` administers the store; `pocitadlo serve` runs the receiver."""
import pytest

from cli.main import main


def test_add_device_needs_its_venue_and_db_may_follow_the_action(tmp_path, capsys):
    db = str(tmp_path / "league.sqlite")
    with pytest.raises(SystemExit) as exit_:
        main(["server", "--db", db, "add-device", "u-lva-1"])
    assert exit_.value.code == 2 and "--venue" in capsys.readouterr().err
    assert main(["server", "add-device", "u-lva-1", "--venue", "Hostinec U Lva", "--db", db]) == 0
    capsys.readouterr()
    assert main(["server", "devices", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("u-lva-1\tdevice\tHostinec U Lva\t")


def _server(db, *argv) -> tuple[int, str, str]:
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["server", "--db", db, *argv])
    return code, out.getvalue(), err.getvalue()


def test_add_device_again_keeps_its_secret_unless_asked_to_rotate_it(tmp_path):
    """Registering a device again (another venue, say) used to give it a new secret without a word,
    and the counter at the table was refused from then on. Now its secret stays unless --rotate."""
    from server.storage.store import Store

    db = str(tmp_path / "league.sqlite")
    code, out, _ = _server(db, "add-device", "u-lva-1", "--venue", "Hostinec U Lva")
    first = out.splitlines()[-1].encode()
    assert code == 0 and "its secret (shown once" in out
    code, out, _ = _server(db, "add-device", "u-lva-1", "--venue", "Hospoda U Koule")
    assert code == 0 and "re-registered device u-lva-1 (its secret unchanged; --rotate gives it a new one)" in out
    code, out, _ = _server(db, "add-device", "u-lva-1", "--venue", "Hospoda U Koule", "--rotate")
    rotated = out.splitlines()[-1].encode()
    assert code == 0 and "with a new secret (its old secret no longer works)" in out and rotated != first
    other = tmp_path / "other.secret"
    other.write_text("another-secret-0123456789abcdef\n")
    code, _, err = _server(db, "add-device", "u-lva-1", "--venue", "Hospoda U Koule", "--secret-file", str(other))
    assert code != 0 and "registered already, with another secret; add --rotate" in err
    store = Store(db)
    try:
        assert store.devices.get("u-lva-1") == ("device", rotated, "Hospoda U Koule")    # refused: nothing changed
    finally:
        store.close()


def test_a_secret_file_that_does_not_exist_yet_gets_the_new_secret(tmp_path):
    from server.storage.store import Store

    db, path = str(tmp_path / "league.sqlite"), tmp_path / "u-lva-1.secret"
    code, out, _ = _server(db, "add-device", "u-lva-1", "--venue", "Hostinec U Lva", "--secret-file", str(path))
    assert code == 0 and f"its new secret is in {path}" in out and "shown once" not in out
    assert path.stat().st_mode & 0o777 == 0o600
    secret = path.read_text().strip()
    assert len(secret) >= 32
    code, out, _ = _server(db, "add-device", "u-lva-1", "--venue", "Hostinec U Lva", "--secret-file", str(path))
    assert code == 0 and "(its secret unchanged)" in out and path.read_text().strip() == secret   # read, not rewritten
    store = Store(db)
    try:
        assert store.devices.secret_of("u-lva-1") == secret.encode()
    finally:
        store.close()


@pytest.mark.parametrize("token, message", [(None, "cannot read the admin token"),
                                            ("short", "the admin token (--admin-token-file) must be at least")])
def test_serve_refuses_an_unusable_admin_token_file_in_one_line(tmp_path, capsys, token, message):
    path = tmp_path / "admin.token"
    if token is not None:
        path.write_text(token)
    code = main(["serve", "--db", str(tmp_path / "l.sqlite"), "--listen", "127.0.0.1:0",
                 "--admin-token-file", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_removed_device_is_refused_as_an_unknown_one_and_what_it_delivered_stays(server, store, store_place, items):
    """Audit report 11: a device could only be rotated. `server remove-device` (a venue left the
    league, a counter lost or stolen): over the real HTTP receiver its signed post is stored
    before and refused after, 401 as an unregistered device's; its match, the match's page and
    the table stay as they were; who removed it and when is in the audit log."""
    from conftest import LVA, Client
    from server.tables import exports
    from server.tables.figures import settle
    from wire.signing import Signer

    client = Client(server.port)
    for body in items("KD-1"):
        assert client.post(body)[0] == 200
    settle(store)
    page, record, table = client.get("/matches/KD-1.html"), exports.match_record(store, "KD-1"), \
        exports.league_table(store, "carom", None)
    held = store.items.all()
    assert page[0] == 200 and len(held) == 5

    code, out, err = _server(store_place, "remove-device", "u-lva-1")
    assert (code, err) == (0, "") and out.startswith(f"removed device u-lva-1 of {LVA}:")
    later = items("KD-2", seed=2)[0]
    status, answer = client.post(later)
    unregistered = Signer("u-nobody", b"nobody-secret-0123456789abcdef").sign(later)
    status_else, _, _ = client.request("POST", "/api/v1/records", later, unregistered.headers())
    assert (status, answer["reason"], status_else) == (401, "unknown device 'u-lva-1'", 401)
    assert store.devices.get("u-lva-1") is None and "u-lva-1" not in [d["id"] for d in store.devices.all()]
    assert store.items.all() == held and client.get("/matches/KD-1.html") == page
    assert exports.match_record(store, "KD-1") == record and exports.league_table(store, "carom", None) == table
    [entry] = store.audit.latest()
    assert entry["who"].startswith("command line, ") and entry["action"] == "remove-device"
    assert entry["what"].startswith("počítadlo u-lva-1 odebráno:")         # the league's Czech, as the web admin's


def test_removing_a_device_that_is_not_registered_is_refused_in_one_line(tmp_path):
    db = str(tmp_path / "league.sqlite")
    assert _server(db, "add-device", "u-lva-1", "--venue", "Hostinec U Lva")[0] == 0
    code, out, err = _server(db, "remove-device", "u-lev-1")
    assert (code, out) == (2, "") and err.strip().splitlines() == [
        "pocitadlo server: remove-device: no device 'u-lev-1' is registered (`server devices` lists them)"]
    code, _, err = _server(str(tmp_path / "none.sqlite"), "remove-device", "u-lva-1")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no such store" in err
    assert _server(db, "devices")[1].startswith("u-lva-1\tdevice\t")     # nothing removed
