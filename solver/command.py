"""The ``solver`` command itself (its console script and ``python -m solver``): the Ctrl-C
handler, then :func:`solver.cli.main`, then a quick exit.

Ctrl-C ends the command at any moment with one line, ``solver: interrupted``, and exit code
130. The handler is installed here, before the command line's modules are imported, and it
records the press as well as raising KeyboardInterrupt: an interrupt raised inside an import
can leave a half-initialised module behind (a later AttributeError), and one raised inside a
compiled callback can be swallowed ("Exception ignored"). ``main`` then reports the press
instead of what followed it.
"""
import os
import signal
import sys

pressed = False


def _press(signum, frame):
    global pressed
    pressed = True
    raise KeyboardInterrupt


def run() -> None:
    """Once the compiled kernels are loaded, a normal interpreter exit spends about 0.5 s (a
    third of a small table build's start-up) collecting and finalising Numba's and LLVM's
    objects, work nobody waits for: by then the command has closed every file it wrote (level
    files are fsynced and renamed) and its Dask client. So flush the two streams and
    ``os._exit``. An exception that escapes ``main`` (a bug) still ends the normal way, with
    its traceback."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:   # not ignored (nohup, &)
        signal.signal(signal.SIGINT, _press)
    try:
        from solver.cli import EXIT_INTERRUPTED, main
    except KeyboardInterrupt:
        print("solver: interrupted", file=sys.stderr)
        os._exit(130)
    try:
        code = main()
    except KeyboardInterrupt:       # pressed after main's own handlers (while printing)
        print("solver: interrupted", file=sys.stderr)
        code = EXIT_INTERRUPTED
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a reader that went away: nothing more to say
            pass
    os._exit(code)
