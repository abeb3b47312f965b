"""Errors a user can cause. The CLI prints their message on one line and exits with code 2."""


class InputError(ValueError):
    """Bad input: a malformed position, an illegal move, an impossible option or file."""
