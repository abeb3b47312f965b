"""Builds the Cython extensions in ``kernels/`` (every ``kernels/*.pyx``); the rest of the
package metadata lives in pyproject.toml.

``SOLVER_SANITIZE=1`` builds them with AddressSanitizer and UndefinedBehaviorSanitizer (gcc or
clang; any UB aborts), for the memory-safety job: the README's "Development" section says how to
build and run it (the Python process needs ``LD_PRELOAD`` of the compiler's libasan)."""
import os
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
PACKAGES = ("solver", "tables", "kernels")
SANITIZE = os.environ.get("SOLVER_SANITIZE", "") not in ("", "0")
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                   "-fno-omit-frame-pointer"]


def compile_flags() -> tuple[list[str], list[str]]:
    """(compile, link) flags: optimised, or sanitized with debug info."""
    if SANITIZE:
        return ["-O1", "-g"] + SANITIZER_FLAGS, SANITIZER_FLAGS
    return ["-O3"], []


def cython_extensions():
    sources = sorted((HERE / "kernels").glob("*.pyx"))
    compile_args, link_args = compile_flags()
    extensions = [Extension(f"kernels.{src.stem}", [str(src.relative_to(HERE))],
                            include_dirs=[numpy.get_include()],
                            extra_compile_args=compile_args, extra_link_args=link_args,
                            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
                  for src in sources]
    return cythonize(extensions, language_level=3, force=SANITIZE, compiler_directives={
        "boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False})


class BuildExtAndByteCompile(build_ext):
    """``build_ext``; in an editable install (extensions built in place) it also byte-compiles
    the packages beside their sources, as pip does for a regular install. Python then reads
    ``__pycache__`` rather than compiling every module each time a command starts, even where
    it may not write bytecode itself (``PYTHONDONTWRITEBYTECODE``: 20-70 ms of each command's
    start-up, measured with ``python -m benches.startup``). A source edited later is compiled
    again, as usual, until the next install."""

    def run(self):
        super().run()
        if self.inplace:
            import compileall
            for package in PACKAGES:
                compileall.compile_dir(str(HERE / package), quiet=1)


setup(ext_modules=cython_extensions(), cmdclass={"build_ext": BuildExtAndByteCompile})
