"""What an installed package (not this checkout) carries: ``solver bench`` reads its positions
from package data, so a wheel must ship them.

The fast test lets setuptools lay out the package as a wheel would (``build_py``: the Python files
plus the declared package data, no compiling) and reads the bench positions from that copy, in a
fresh process started outside the checkout. The slow test builds a real wheel, installs it in a
fresh virtual environment and runs ``solver bench`` there."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
READ_POSITIONS = """
import json, solver, solver.bench as bench
print(json.dumps(dict(package=solver.__file__, mancala=len(bench.mancala_positions()),
                      funkel=len(bench.json_positions("funkel")),
                      tunhell=len(bench.json_positions("tunhell")))))
"""


def _checkout_counts() -> dict:
    from solver import bench
    return dict(mancala=len(bench.mancala_positions()), funkel=len(bench.json_positions("funkel")),
                tunhell=len(bench.json_positions("tunhell")))


def test_the_package_as_a_wheel_lays_it_out_carries_the_bench_positions(tmp_path):
    layout = tmp_path / "lib"
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(layout)],
                   cwd=ROOT, check=True, capture_output=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    done = subprocess.run([sys.executable, "-c", READ_POSITIONS], cwd=outside,
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(layout)))
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found.pop("package")).is_relative_to(layout)
    assert found == _checkout_counts() and min(found.values()) > 0


@pytest.mark.slow
def test_solver_bench_runs_from_an_installed_wheel(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
                    str(ROOT)], check=True, capture_output=True)
    (wheel,) = wheels.glob("solver-*.whl")
    env_dir = tmp_path / "env"
    # The environment sees this interpreter's numpy and numba; its own site-packages, searched
    # first, holds the wheel's solver.
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "-q", str(wheel)], check=True,
                   capture_output=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    where = subprocess.run([python, "-c", "import solver; print(solver.__file__)"], cwd=outside,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(env_dir)
    done = subprocess.run([python, "-m", "solver", "bench", "mancala", "--depth", "2", "--json"],
                          cwd=outside, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    from solver import bench
    names = {row["position"] for row in json.loads(done.stdout)["rows"]}
    assert names == {p["name"] for p in bench.mancala_positions()}


def test_the_install_leaves_bytecode_for_every_module_it_imports():
    """``pip install`` byte-compiles the packages (setup.py's build_ext does it beside the
    sources for an editable install), so a command starts without compiling them even where
    Python may not write bytecode."""
    import importlib.util

    import solver.cli
    import tables.levels
    for module in (solver.cli, tables.levels):
        assert Path(importlib.util.cache_from_source(module.__file__)).exists(), module.__file__
