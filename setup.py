"""Package layout: one import name, folders at the top of the repository.

The design card keeps ``model/``, ``solver/``, ``reports/``, ``properties/`` and ``examples/`` at
the top of the repository, while the only import name is ``invasion_oracle``. Each folder is mapped
to its subpackage here (setuptools ``package_dir``), so the wheel installs
``invasion_oracle.model``, ``invasion_oracle.solver``, ... and the editable install finds them
without symbolic links. Every folder below them is a package (data folders included, so that their
JSON files travel as package data); the list is computed, so it cannot drift from the tree.
"""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
PACKAGE = "invasion_oracle"
FOLDERS = ("model", "solver", "reports", "properties", "examples")


def _subfolders(top: Path) -> list[Path]:
    found = [top]
    for path in sorted(top.rglob("*")):
        if path.is_dir() and "__pycache__" not in path.parts and not path.name.startswith("."):
            found.append(path)
    return found


def _layout() -> tuple[dict[str, str], list[str]]:
    package_dir = {PACKAGE: PACKAGE}
    packages = [PACKAGE]
    for folder in FOLDERS:
        package_dir[f"{PACKAGE}.{folder}"] = folder
        for path in _subfolders(ROOT / folder):
            relative = path.relative_to(ROOT)
            packages.append(".".join((PACKAGE, *relative.parts)))
    return package_dir, packages


package_dir, packages = _layout()
setup(package_dir=package_dir, packages=packages)
