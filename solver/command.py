"""The ``solver`` command itself (its console script and ``python -m solver``): the Ctrl-C
handler, then :func:`solver.cli.main`, then a quick exit.

Ctrl-C ends the command at any moment with one line, ``solver: interrupted``, and exit code
130. The handler is installed here, before the command line's modules are imported, and it
records the press as well as raising KeyboardInterrupt: an interrupt raised inside an import
can leave a half-initialised module behind (a later AttributeError), and one raised inside a
compiled callback can be swallowed ("Exception ignored"). ``main`` then reports the press
instead of what followed it. Inside Numba's own code the press is recorded and delivered again
a moment later instead (:func:`_press`).
"""
import os
import signal
import sys
import time

pressed = False
RETRY_SECONDS = 0.05    # how soon a Ctrl-C that arrived inside Numba is delivered again
DEFER_SECONDS_MAX = 1.0     # and for how long at most, before the command ends there and then
_COMPILER_PACKAGES = ("numba", "llvmlite")
_deferred_since = None


def _press(signum, frame):
    """Ctrl-C: record it and raise KeyboardInterrupt, except inside Numba's own Python code
    (loading a kernel from its cache, compiling). An exception raised there can leave its
    compiled objects half made: table builds interrupted 0.6-1.0 s after their start died of a
    segmentation fault inside a kernel's first call in 3 runs of 50 (none of 80 with this
    rule). There the interrupt is only recorded and delivered again RETRY_SECONDS later, by
    when the interpreter is usually back in our code. A chain of kernels compiled after a fresh
    install can keep it in Numba for many seconds: after DEFER_SECONDS_MAX the command ends
    there, with the same line and exit code, without unwinding (files are written atomically,
    so a rerun finds the finished ones and redoes the rest)."""
    global pressed, _deferred_since
    pressed = True
    if _in_compiler(frame):
        now = time.monotonic()
        _deferred_since = _deferred_since or now
        if now - _deferred_since < DEFER_SECONDS_MAX:
            signal.signal(signal.SIGALRM, _deliver_again)
            signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
            return
        print("solver: interrupted", file=sys.stderr, flush=True)
        os._exit(130)
    _deferred_since = None
    raise KeyboardInterrupt


def _deliver_again(signum, frame):
    os.kill(os.getpid(), signal.SIGINT)     # to whichever Ctrl-C handler is current by now


def _in_compiler(frame) -> bool:
    """Is a frame of Numba's or llvmlite's Python code on the interrupted stack?"""
    while frame is not None:
        if frame.f_globals.get("__name__", "").partition(".")[0] in _COMPILER_PACKAGES:
            return True
        frame = frame.f_back
    return False


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
