"""The docs' picture scripts (docs/make_images.py, docs/make_site_images.py) loaded as modules for
their tests: they are scripts, not packages."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script(name: str):
    """docs/<name>.py as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
