"""Builds the Cython extensions in ``kernels/`` (every ``kernels/*.pyx``); the rest of the
package metadata lives in pyproject.toml."""
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent


def cython_extensions():
    sources = sorted((HERE / "kernels").glob("*.pyx"))
    extensions = [Extension(f"kernels.{src.stem}", [str(src.relative_to(HERE))],
                            include_dirs=[numpy.get_include()],
                            extra_compile_args=["-O3"],
                            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
                  for src in sources]
    return cythonize(extensions, language_level=3, compiler_directives={
        "boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False})


setup(ext_modules=cython_extensions())
