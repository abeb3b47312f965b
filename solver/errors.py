"""Errors a user can cause, and how a user can end a game. The CLI prints an error's message on
one line and exits with code 2; a game left at the prompt ends with code 0. (Here, not beside
the code that raises them: the CLI catches them without importing that code.)"""
import os
import stat
import sys


class InputError(ValueError):
    """Bad input: a malformed position, an illegal move, an impossible option or file."""


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
            mode = os.stat(path).st_mode
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                raise InputError(f"cannot read {what} {path}: it is a device, not a file")
            with open(path, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot read {what} {path}: {error.strerror or error}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{what} {path} is larger than {MAX_INPUT_BYTES >> 20} MB: not one")
    return data
