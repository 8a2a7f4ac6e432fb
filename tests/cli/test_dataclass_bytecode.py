"""The dataclasses' code kept at install (cli/dataclass_bytecode.py): used when the source is the
same, compiled afresh when it is not, ignored when the file is not this interpreter's."""
import dataclasses
import marshal
import sys
from dataclasses import dataclass, field

import pytest

from cli import dataclass_bytecode
from cli.dataclass_bytecode import Bytecode, build, install, read, write


@pytest.fixture(autouse=True)
def uninstalled():
    yield
    dataclass_bytecode.uninstall()


def shot_class(default=0):
    @dataclass(frozen=True, order=True)
    class Shot:
        player: str
        points: int = default
        tags: list = field(default_factory=list, compare=False)     # nor hashed

    return Shot


def kept_file(tmp_path, make=shot_class):
    """The file as install.sh leaves it, holding the code of the classes ``make`` defines."""
    recording = dataclass_bytecode._give(Bytecode({}))
    make()
    dataclass_bytecode.uninstall()
    path = str(tmp_path / "dataclasses.marshal")
    write(path, recording.made_code())
    return path, len(recording.made)


def test_kept_code_is_run_instead_of_compiling_and_the_class_behaves_the_same(tmp_path):
    path, methods = kept_file(tmp_path)
    assert methods >= 6         # __init__ __repr__ __eq__ __lt__ … __hash__ __setattr__ __delattr__
    bytecode = install(path)
    assert bytecode is not None
    shot = shot_class()
    assert bytecode.hits == methods and bytecode.made == {}
    a = shot("Dvořák", 2)
    assert a == shot("Dvořák", 2) and hash(a) == hash(shot("Dvořák", 2)) and a < shot("Dvořák", 3)
    assert repr(a).endswith("Shot(player='Dvořák', points=2, tags=[])")
    assert a.tags is not shot("Novák").tags
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.points = 3            # type: ignore[misc]


def test_a_changed_default_is_taken_from_the_class_not_from_the_kept_code(tmp_path):
    path, methods = kept_file(tmp_path)
    bytecode = install(path)
    assert shot_class(default=7)("Novák").points == 7 and bytecode.hits == methods


def test_a_changed_dataclass_is_compiled_afresh(tmp_path):
    path, _ = kept_file(tmp_path)
    bytecode = install(path)

    @dataclass(frozen=True)
    class Shot:                 # a field more: other sources
        player: str
        points: int = 0
        foul: bool = False

    assert bytecode.made and Shot("Novák", foul=True).foul is True
    assert repr(Shot("Novák")).endswith("Shot(player='Novák', points=0, foul=False)")


def test_a_file_of_another_interpreter_or_damaged_or_missing_changes_nothing(tmp_path):
    path, _ = kept_file(tmp_path)
    doc = marshal.load(open(path, "rb"))
    other = tmp_path / "other.marshal"
    other.write_bytes(marshal.dumps({**doc, "python": doc["python"] + " (another build)"}))
    damaged = tmp_path / "damaged.marshal"
    damaged.write_bytes(open(path, "rb").read()[:100])
    for bad in (other, damaged, tmp_path / "missing.marshal"):
        assert read(str(bad)) == {} and install(str(bad)) is None
        assert "exec" not in vars(dataclasses)
    assert read(path)


def test_build_keeps_the_code_of_every_module_of_the_packages_and_skips_what_cannot_import(tmp_path, monkeypatch):
    package = tmp_path / "dc_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "shots.py").write_text("from dataclasses import dataclass\n\n@dataclass\nclass Shot:\n"
                                      "    player: str\n")
    (package / "extra.py").write_text("import a_module_not_installed\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = str(tmp_path / "dataclasses.marshal")
    try:
        kept, skipped = build(path, packages=("dc_probe",))
    finally:
        for name in [m for m in sys.modules if m.startswith("dc_probe")]:
            del sys.modules[name]
    assert kept == 3 and skipped == ["dc_probe.extra"]      # __init__, __repr__, __eq__
    assert "exec" not in vars(dataclasses) and len(read(path)) == 3


def test_the_install_step_never_fails_the_install(monkeypatch, capsys):
    def broken(*_):
        raise OSError("read-only file system")

    monkeypatch.setattr(dataclass_bytecode, "build", broken)
    assert dataclass_bytecode.main() == 0
    assert "not made (read-only file system)" in capsys.readouterr().err
