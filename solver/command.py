"""The ``solver`` command itself (its console script and ``python -m solver``): the Ctrl-C
handler, then :func:`solver.cli.main`, then a quick exit.

Ctrl-C ends the command at any moment with one line, ``solver: interrupted``, and exit code
130. The handler is installed here, before the command line's modules are imported, and it
records the press as well as raising KeyboardInterrupt: an interrupt raised inside an import
can leave a half-initialised module behind (a later AttributeError), and one raised inside a
compiled callback can be swallowed ("Exception ignored"). ``main`` then reports the press
instead of what followed it. Inside Numba's own code the press is recorded and delivered again
a moment later instead (:func:`_press`), and so is one that lands in a finaliser
(:func:`_unraisable`).
"""
import _thread
import os
import signal
import sys
import threading
import time

pressed = False
RETRY_SECONDS = 0.05    # how often a Ctrl-C held back inside Numba looks for a way out
DEFER_SECONDS_MAX = 1.0     # and for how long at most, before the command ends there and then
_COMPILER_PACKAGES = ("numba", "llvmlite")


def _press(signum, frame):
    """Ctrl-C: record it and raise KeyboardInterrupt, except inside Numba's own Python code
    (loading a kernel from its cache, compiling). An exception raised there can leave its
    compiled objects half made: table builds interrupted 0.6-1.0 s after their start died of a
    segmentation fault inside a kernel's first call in 3 runs of 50 (none of 80 with this
    rule). There the press is only recorded, and a watcher thread delivers it again as soon as
    the main thread has left Numba's code (:func:`_deliver_later`)."""
    global pressed
    pressed = True
    if _in_compiler(frame):
        threading.Thread(target=_deliver_later, args=(threading.main_thread().ident,),
                         name="ctrl-c", daemon=True).start()
        return
    raise KeyboardInterrupt


def _deliver_later(main_thread: int) -> None:
    """Send Ctrl-C again, to whichever handler is current by then, once the main thread has
    left Numba's code: the press then counts as made at that moment. If the main thread does
    not move on within DEFER_SECONDS_MAX of the press (a chain of kernels compiled after a fresh
    install, or a long compiled call begun meanwhile, in which no handler can run), the command
    ends there and then, with the same line and exit code, without unwinding (files are written
    atomically, so a rerun finds the finished ones and redoes the rest)."""
    deadline = time.monotonic() + DEFER_SECONDS_MAX
    while time.monotonic() < deadline:
        time.sleep(RETRY_SECONDS)
        frame = sys._current_frames().get(main_thread)
        if frame is None or not _in_compiler(frame):
            break
    else:
        _end_now()
    if frame is None:
        return
    at = frame.f_lasti
    os.kill(os.getpid(), signal.SIGINT)
    deadline = max(deadline, time.monotonic() + 4 * RETRY_SECONDS)
    while time.monotonic() < deadline:
        time.sleep(RETRY_SECONDS)
        if sys._current_frames().get(main_thread) is not frame or frame.f_lasti != at:
            return          # the main thread moved on: a handler has the press
    _end_now()


def _unraisable(info) -> None:
    """``sys.unraisablehook``: an exception Python cannot raise where it happened (in a
    finaliser such as a mapping's ``__del__``, or a weakref callback). A Ctrl-C that landed
    there would be printed as "Exception ignored" with a traceback, and lost: a table build went
    on to its end. Delivered again instead, RETRY_SECONDS later (from another thread: a signal
    made pending here would be handled inside this hook, unraisable again); should it land in a
    finaliser again, this comes round once more. Anything else goes to Python's own hook."""
    if isinstance(info.exc_value, KeyboardInterrupt):
        threading.Thread(target=_interrupt_soon, name="ctrl-c", daemon=True).start()
        return
    sys.__unraisablehook__(info)


def _interrupt_soon() -> None:
    time.sleep(RETRY_SECONDS)
    _thread.interrupt_main()


def _end_now() -> None:
    print("solver: interrupted", file=sys.stderr, flush=True)
    os._exit(130)


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
    for stream in (sys.stdout, sys.stderr):     # a path an ASCII terminal cannot show: \xe9
        if stream is not None and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:   # not ignored (nohup, &)
        signal.signal(signal.SIGINT, _press)
        sys.unraisablehook = _unraisable
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
