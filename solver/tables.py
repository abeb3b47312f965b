"""Mancala endgame tables, the public entry points (the implementation is the top-level
``tables`` package; see its docstring for the file format and the build order).

``tables`` is also PyTables' import name: code that uses both imports this module instead.
"""
from tables.api import (BuildProgress, BuildReport, DirectoryInfo, ProbeResult,  # noqa: F401
                        SearchTables, VerifyReport, build, default_directory, info,
                        load_for_search, probe, verify)
