"""Reading a JSON position document safely: the one place the games' codecs turn text (or bytes
from a file) into Python values, so every way JSON text can be broken gives one InputError line."""
from __future__ import annotations

import json


def load_document(text, game: str):
    """The JSON value of ``text`` (str, or bytes/bytearray holding UTF-8). Raises InputError for
    anything else: bytes that are not UTF-8, text that is not JSON, JSON nested too deeply for
    the parser (RecursionError), integers longer than Python converts (ValueError since 3.11),
    and the non-standard constants NaN and Infinity (never written by the codecs)."""
    from solver.errors import InputError
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise InputError(f"{game} position is not UTF-8 text: byte {err.start} "
                             f"(0x{err.object[err.start]:02x}) cannot be decoded") from None
    if not isinstance(text, str):
        raise InputError(f"{game} position must be JSON text, got {type(text).__name__}")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        raise InputError(f"{game} position is not valid JSON: {err}") from None
    except RecursionError:
        raise InputError(f"{game} position is nested too deeply to be a position") from None
    except ValueError as err:      # e.g. "Exceeds the limit (4300 digits) for integer string"
        raise InputError(f"{game} position holds a number that cannot be read: "
                         f"{str(err).splitlines()[0]}") from None


def _refuse_constant(word: str):
    raise ValueError(f"{word} is not a JSON number")
