"""Errors a user can cause, and how a user can end a game. The CLI prints an error's message on
one line and exits with code 2; a game left at the prompt ends with code 0. (Here, not beside
the code that raises them: the CLI catches them without importing that code.)"""


class InputError(ValueError):
    """Bad input: a malformed position, an illegal move, an impossible option or file."""


class GameAbandoned(Exception):
    """A person left a game at the prompt."""
