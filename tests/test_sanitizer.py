"""The Cython engines under AddressSanitizer and UndefinedBehaviorSanitizer (issue 9): a copy of
the source tree is built with ``SOLVER_SANITIZE=1`` and the Tunhell engine-vs-reference games,
the searches (ISMCTS, PIMC), the determinizer, the Tunhell reader fuzzer and the Cython Mancala
alpha-beta against the Numba one run on it in a subprocess with the sanitizer runtime preloaded.
Any out-of-bounds access, use after free, double free or undefined behaviour aborts that run
with a report.

Slow (a sanitized build takes about a minute, the run about another): ``python -m pytest -m slow
tests/test_sanitizer.py``. The README's "Development" section gives the same steps by hand.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOT_COPIED = shutil.ignore_patterns(".git", "build", "*.so", "*.c", "__pycache__", "*.egg-info",
                                    ".benchmarks", ".hypothesis", ".ruff_cache", ".pytest_cache")
SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")
RUNS_UNDER_SANITIZERS = [
    "tests/test_tunhell_engine.py",      # engine vs reference, action by action, random games
    "tests/test_tunhell_search.py",      # ISMCTS, PIMC, the determinizer against the reference
    "tests/test_fuzz_positions.py::test_damaged_tunhell_views_are_read_or_refused_in_one_line",
    "tests/test_mancala_cython_ab.py",   # the Cython Mancala alpha-beta against the Numba one
]


def libasan() -> str | None:
    """The compiler's AddressSanitizer runtime (what LD_PRELOAD must load first), or None."""
    if shutil.which("gcc") is None:
        return None
    found = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                           text=True).stdout.strip()
    return os.path.realpath(found) if os.path.isabs(found) and os.path.exists(found) else None


@pytest.fixture(scope="module")
def sanitized_tree(tmp_path_factory) -> Path:
    if libasan() is None:
        pytest.skip("no gcc with libasan here")
    tree = tmp_path_factory.mktemp("sanitized") / "solver"
    shutil.copytree(ROOT, tree, ignore=NOT_COPIED)
    env = dict(os.environ, SOLVER_SANITIZE="1")
    built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree,
                           env=env, capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stderr[-3000:]
    return tree


def run_sanitized(tree: Path, *args: str) -> subprocess.CompletedProcess:
    """``python ARGS`` in the sanitized tree: its kernels first on the path, libasan preloaded,
    leak reports off (CPython keeps its interned objects to the end by design)."""
    env = dict(os.environ, PYTHONPATH=str(tree), LD_PRELOAD=libasan(),
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=3600)


@pytest.mark.slow
def test_the_sanitized_kernels_are_the_ones_imported(sanitized_tree):
    done = run_sanitized(sanitized_tree, "-c", "import kernels.tunhell as t; print(t.__file__)")
    assert done.returncode == 0, done.stderr
    loaded = Path(done.stdout.strip())
    assert loaded.is_relative_to(sanitized_tree)
    linked = subprocess.run(["ldd", str(loaded)], capture_output=True, text=True).stdout
    assert "libasan" in linked and "libubsan" in linked


@pytest.mark.slow
def test_the_cython_engines_searches_and_reader_run_clean_under_asan_and_ubsan(sanitized_tree):
    done = run_sanitized(sanitized_tree, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                         *RUNS_UNDER_SANITIZERS)
    report = done.stdout[-4000:] + done.stderr[-4000:]
    assert not any(word in report for word in SANITIZER_REPORTS), report
    assert done.returncode == 0, report
    assert " passed" in done.stdout
