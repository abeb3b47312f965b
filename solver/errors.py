"""Errors a user can cause, and how a user can end a game. The CLI prints an error's message on
one line and exits with code 2; a game left at the prompt ends with code 0. (Here, not beside
the code that raises them: the CLI catches them without importing that code.)"""
import os
import stat
import sys


def shown(value, limit: int = 80) -> str:
    """How a message shows a value it refuses (``tables.errors.shown``: the one rule for both
    packages; imported here on use, as ``python -m solver`` run from inside the package folder
    would otherwise find this package's ``tables`` module first)."""
    from tables.errors import shown as shown_by_tables
    return shown_by_tables(value, limit)


LONGEST_ERROR = 400     # characters: a 100 kB value is shown by its two ends


def one_line(message) -> str:
    """``message`` (any object's text) on one line, a very long one cut to its two ends."""
    text = " ".join(str(message).split())
    if len(text) > LONGEST_ERROR:
        text = f"{text[:LONGEST_ERROR - 100]} ... {text[-60:]} ({len(text):,} characters)"
    return text


class InputError(ValueError):
    """Bad input: a malformed position, an illegal move, an impossible option or file. Its
    message is one line, a huge value in it shown by its two ends (as the CLI prints it)."""

    def __init__(self, message="", *args):
        super().__init__(one_line(message), *args)


class GameAbandoned(Exception):
    """A person left a game at the prompt."""


# Input files a user names (positions, checkpoints, bench baselines) are a few kilobytes; a
# device or a huge file given by mistake is refused rather than read until memory runs out.
MAX_INPUT_BYTES = 64 << 20


def read_input_file(path: str, what: str, dash_is_stdin: bool = True) -> bytes:
    """The bytes of the ``what`` file at ``path`` (``-``: standard input, unless
    ``dash_is_stdin`` is false), or an InputError when it cannot be read, is a device, or holds
    more than MAX_INPUT_BYTES."""
    try:
        if path == "-" and dash_is_stdin:
            if sys.stdin is None:
                raise InputError(f"cannot read the {what} from standard input: it is closed")
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            problem = _not_a_file(os.stat(path).st_mode)
            if problem:     # a pipe would wait for a writer for ever
                raise InputError(f"cannot read {what} {path}: it is {problem}, not a file")
            with open(path, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot read {what} {path}: {error.strerror or error}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{what} {path} is larger than {MAX_INPUT_BYTES >> 20} MB: not one")
    return data


def _not_a_file(mode: int) -> str | None:
    """What a path whose ``st_mode`` is ``mode`` is, if not a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    return "a socket" if stat.S_ISSOCK(mode) else "not a regular file"


def refuse_dash(path, what: str) -> None:
    """'-' names the standard output elsewhere; as the name of a file written here it would
    make a file "-", so it is refused (``./-`` still names one)."""
    if str(path) == "-":
        raise InputError(f"cannot write {what}: '-' (standard output) is not a file here; "
                         "write ./- for a file of that name")


def check_writable(path, what: str):
    """The file a command will write at ``path`` (a symbolic link followed, so that the link
    stays and its target is written), checked before the run: an InputError if it exists and is
    not a regular file (a device, a pipe: the write renames a new file over it), or if its folder
    does not take a new file. The write itself is atomic (``tables.format.atomic_file``)."""
    from pathlib import Path

    from tables.format import temporary_path
    refuse_dash(path, what)
    target = Path(os.path.realpath(path))
    try:
        problem = _not_a_file(os.stat(target).st_mode)
    except FileNotFoundError:
        problem = None
    except OSError as error:
        raise InputError(f"cannot write {what}: {error.strerror or error}") from None
    if problem:
        raise InputError(f"cannot write {what}: it is {problem}, not a file")
    if not target.parent.is_dir():
        raise InputError(f"cannot write {what}: no folder {str(target.parent)!r}")
    probe = temporary_path(target)  # the very file the write starts with: a folder that
    try:                            # refuses files, or a name too long, fails now
        with open(probe, "wb"):
            pass
        probe.unlink()
    except OSError as error:
        raise InputError(f"cannot write {what}: {error.strerror or error}") from None
    return target
