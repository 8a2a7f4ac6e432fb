"""`pocitadlo emulate --frames` where the [emulator] extra is not installed (a Pi's install):
one line naming what is missing, exit status 2, no frames folder — it wrote 0 PNGs and exited 0."""
import sys

from cli.main import main


def test_frames_without_the_emulator_extra_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    keys = tmp_path / "keys.txt"
    keys.write_text("\n3\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "luma.emulator.device", None)     # as on a Pi: not importable
    status = main(["emulate", "--data", str(tmp_path / "data"), "--keys", str(keys),
                   "--frames", str(tmp_path / "frames")])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.splitlines()) == 1 and err.startswith("pocitadlo emulate: --frames needs luma.emulator")
    assert "pocitadlo[emulator]" in err
    assert not (tmp_path / "frames").exists()


def test_keys_without_frames_need_no_emulator_extra(tmp_path, monkeypatch, capsys):
    """A headless key script (the chroot test's, as the service user) plays without luma.emulator."""
    keys = tmp_path / "keys.txt"
    keys.write_text("\n3\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "luma.emulator.device", None)
    assert main(["emulate", "--data", str(tmp_path / "data"), "--keys", str(keys)]) == 0
    assert '"frames"' in capsys.readouterr().out
