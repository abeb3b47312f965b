"""Compiled modules bound at import but loaded on first use, so listing tables, reading a
header or refusing bad input never pays for Numba (a warm Numba start is about 1.5 s here)."""
import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, executed the first time one of its attributes is read."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
