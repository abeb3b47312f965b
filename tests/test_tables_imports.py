"""Dependencies point one way: ``solver -> tables -> kernels``. No module of ``tables`` or
``kernels`` imports ``solver``, checked twice: by reading every import statement of their
source, and by importing each module in a fresh interpreter and looking at ``sys.modules``."""
import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tables", "kernels")


def modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).glob("*.py")):
            yield package if path.stem == "__init__" else f"{package}.{path.stem}", path


def imported_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("name,path", list(modules()), ids=[m for m, _ in modules()])
def test_no_import_statement_names_solver(name, path):
    assert not {n for n in imported_names(path) if n == "solver" or n.startswith("solver.")}


FRESH = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(m for m in sys.modules if m == "solver" or m.startswith("solver."))))
"""


def test_importing_every_module_of_tables_and_kernels_loads_no_solver_module():
    names = [name for name, _ in modules()]
    done = subprocess.run([sys.executable, "-c", FRESH, *names], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert json.loads(done.stdout) == []
