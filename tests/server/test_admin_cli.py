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
