"""Options as data: what a game declares for the command line and the checks every value gets.

A game lists its options (:class:`Option`) in its registry record; the CLI builds its parsers
from them, so no command holds per-game parser code. Every value is checked the same way
everywhere (a seed, a time, a count), and a bad one is an :class:`InputError` naming the option.
"""
from __future__ import annotations

import argparse
import math
import numbers
import string
from dataclasses import dataclass
from typing import Any, Callable

from solver.errors import InputError, shown

SEARCH_SEED_MAX = 2**64 - 1   # a Funkel or Tunhell search's seed (check_search_seed)
SEED_MAX = 2**32 - 1          # every kernel takes a seed in 0..2^32-1 (mixed into 64-bit streams)
SECONDS_MAX = 7 * 24 * 3600.0  # a week: anything longer is a typo, and inf would never stop
COUNT_MAX = 10**12
TABLE_MB_MAX = 65536          # a transposition table of at most 64 GiB
THREADS_MAX = 256
MEMORY_TABLES_MAX = 30        # Mancala levels computed for one search: 6 pits' up to 30 take 11 GB
# The help of the Mancala table options `best` and `solve` share.
NO_TABLES_HELP = "probe no endgame tables, not even levels computed in memory"
MEMORY_TABLES_HELP = ("compute the endgame tables up to N stones in memory first and probe those "
                      "(no files); without table files a large exact search (six pits and 44 "
                      "stones or more in them, five and 46) computes levels up to 16-18 by itself")


def seconds(text: str) -> float:
    """A time budget: a finite number of seconds > 0 (at most a week)."""
    try:
        if not is_decimal_text(text):
            raise ValueError(text)
        value = float(text)
    except (AttributeError, TypeError, ValueError):
        raise InputError(f"expected a number of seconds, got {shown(text)}") from None
    if not math.isfinite(value) or value <= 0 or value > SECONDS_MAX:
        raise InputError(f"a time must be a finite number of seconds in (0, {SECONDS_MAX:g}], "
                         f"got {text}")
    return value


def is_decimal_text(text: str) -> bool:
    """May ``text`` go to ``float``: ASCII, without the underscores Python's literals allow
    ("1_0" is 10 to ``float``), as a number a person types is read elsewhere too."""
    return text.isascii() and "_" not in text


def is_digits(text: str) -> bool:
    """Is ``text`` a whole number in ASCII digits, short enough for ``int``? (``str.isdigit``
    also passes '²' and '①', which ``int`` refuses, and any length, where ``int`` stops at 4,300
    digits.)"""
    return text.isascii() and text.isdigit() and len(text) <= 20


def _whole(text: str, low: int, high: int, what: str) -> int:
    text = str(text).strip(string.whitespace)      # ASCII: a no-break space is not a blank
    if not is_digits(text.lstrip("+-")) or len(text) > 20:
        raise InputError(f"{what} must be a whole number {low}..{high}, got {shown(text)}")
    value = int(text)
    if not low <= value <= high:
        raise InputError(f"{what} must be {low}..{high}, got {value}")
    return value


def count(text: str) -> int:
    """A positive count (simulations, samples, games, threads)."""
    return _whole(text, 1, COUNT_MAX, "a count")


def seed(text: str) -> int:
    """A random seed, 0..SEED_MAX."""
    return _whole(text, 0, SEED_MAX, "a seed")


class OptionValueError(InputError, argparse.ArgumentTypeError):
    """A bad option value: an InputError to the API, and to argparse (used as a ``type=``) the
    reason it prints as "argument --flag: <why>" instead of "invalid ... value"."""


def whole(low: int, high: int, what: str = "the value") -> Callable[[str], int]:
    """A whole number in low..high. ``what`` may be the flag itself (``--max-stones``), which
    argparse already puts before the reason: it is then said once."""
    def parse(text: str) -> int:
        try:
            return _whole(text, low, high, what)
        except InputError as error:
            reason = str(error)
            if what.startswith("-"):    # "argument --max-stones: must be 1..48, got 99"
                reason = reason.removeprefix(f"{what} ")
            raise OptionValueError(reason) from None
    parse.__name__ = what
    return parse


def named(what: str) -> Callable[[str], str]:
    """A ``what`` (file, folder) argument: an empty name is an error, not "none" or the current
    folder (which the system would read it as)."""
    def parse(text: str) -> str:
        if not text:
            raise OptionValueError(f"a {what} name must not be empty")
        return text
    parse.__name__ = f"{what} name"
    return parse


folder, file_name = named("folder"), named("file")


def scheduler(text: str) -> str:
    """A Dask scheduler's address (``tables.address``), checked before Dask is imported."""
    from tables.address import check_scheduler
    from tables.errors import TableError
    try:
        return check_scheduler(text)
    except TableError as error:
        raise OptionValueError(str(error)) from None


def is_whole(value: Any) -> bool:
    """Is ``value`` what the API takes as a whole number: an int or a NumPy integer, not a
    bool?"""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_whole(value: Any, low: int, high: float, what: str, span: str | None = None) -> int:
    """The API's check of a whole number in low..high, returned as a Python int (so a NumPy
    integer goes on as an int). ``span``: how the message writes the range, if not low..high."""
    if not is_whole(value) or not low <= value <= high:
        raise InputError(f"{what} must be a whole number {span or f'{low}..{high}'}, "
                         f"got {shown(value)}")
    return int(value)


def check_flag(value: Any, what: str) -> bool:
    """The API's check of an on/off argument: True or False (a NumPy bool too), not any value
    that happens to be truthy ("no" would switch it on)."""
    kind = type(value)
    if not (kind is bool or kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")):
        raise InputError(f"{what} must be True or False, got {shown(value)}")
    return bool(value)


def check_seed(value: Any) -> int:
    """The API's check of a seed given as a Python value."""
    return check_whole(value, 0, SEED_MAX, "a seed")


def check_search_seed(value: Any) -> int:
    """The API's check of a Funkel or Tunhell search's seed: 0..2**64-1 (wider than SEED_MAX:
    a bot draws 63 random bits for each decision)."""
    return check_whole(value, 0, SEARCH_SEED_MAX, "seed", span="0..2**64-1")


def check_seconds(value: Any) -> float:
    """The API's check of a time given as a Python value."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):   # NumPy's numbers too
        raise InputError(f"a time must be a number of seconds, got {shown(value)}")
    try:
        return seconds(repr(float(value)))
    except OverflowError:       # a whole number beyond any float
        raise InputError(f"a time must be a finite number of seconds in (0, {SECONDS_MAX:g}], "
                         f"got {shown(value)}") from None


def check_finite(value: Any, what: str) -> float:
    """The API's check of a finite number >= 0 (a weight, a constant) given as a Python value."""
    number = math.nan
    if not isinstance(value, bool) and isinstance(value, numbers.Real):    # NumPy's too
        try:
            number = float(value)
        except OverflowError:       # a whole number beyond any float
            pass
    if not math.isfinite(number) or number < 0:
        raise InputError(f"{what} must be a finite number >= 0, got {shown(value)}")
    return number


def check_deal_seed(value: Any) -> int | None:
    """The API's check of a new game's seed: None (deal at random) or a whole number
    0..2**64-1 (wider than SEED_MAX: a deal is seeded by Python's ``random``, not a kernel)."""
    if value is None:
        return None
    if not is_whole(value) or not 0 <= value < 1 << 64:
        raise InputError(f"a seed must be None or a whole number 0..2**64-1, got {shown(value)}")
    return int(value)


def check_table_mb(value: Any) -> int:
    """The API's check of a transposition table's size in MB."""
    return check_whole(value, 1, TABLE_MB_MAX, "table_mb")


def check_players(value: Any) -> int:
    """The API's check of a player count (every multi-player game seats 2, 3 or 4)."""
    if not is_whole(value) or value not in (2, 3, 4):
        raise InputError(f"players must be 2, 3 or 4, got {shown(value)}")
    return int(value)


@dataclass(frozen=True)
class Option:
    """One command-line option: ``flag`` (``--time``), ``parse`` (text -> value, raising
    InputError; None for an on/off switch), the help text, its default, and ``dest`` (the name
    of the keyword it feeds; default: the flag's name with ``-`` as ``_``). A switch whose
    ``default`` is True is turned off by its flag (``--no-capture-empty``)."""

    flag: str
    parse: Callable[[str], Any] | None
    help: str
    default: Any = None
    dest: str | None = None
    choices: tuple = ()
    metavar: str | None = None
    group: str | None = None    # options of one group exclude each other (a budget, say)

    @property
    def name(self) -> str:
        if self.dest:
            return self.dest
        return self.flag.lstrip("-").replace("-", "_")

    def add_to(self, parser) -> None:
        target = parser
        if self.parse is None:
            action = "store_false" if self.default is True else "store_true"
            target.add_argument(self.flag, dest=self.name, action=action,
                                help=self.help.replace("%", "%%"))
            return
        target.add_argument(self.flag, dest=self.name, type=self._checked, default=self.default,
                            metavar=self.metavar, help=self.help.replace("%", "%%"))

    def _checked(self, text: str):
        try:
            value = self.parse(text)
        except InputError as error:   # argparse then says "argument --flag: <why>"
            raise argparse.ArgumentTypeError(str(error)) from None
        if self.choices and value not in self.choices:   # argparse's own words otherwise
            raise argparse.ArgumentTypeError(f"must be one of {', '.join(map(str, self.choices))},"
                                             f" got {shown(text)}")
        return value


def refuse_contradicting_rules(given: dict, options, position_rules) -> None:
    """A position carries its rules: a rules option given with a value other than its default
    that the position's rules contradict (``--players 3`` for a 2-player position) is an
    InputError, not silently overruled. (An option left at its default cannot be told from
    one not given, and is not checked.)"""
    for option in options:
        value, held = given.get(option.name), getattr(position_rules, option.name, None)
        # an absent switch reads as its off value (False, or True for a --no-... switch)
        absent = (option.default is True) if option.parse is None else option.default
        if value is None or value == absent or held is None or value == held:
            continue
        shown = option.flag if option.parse is None else f"{option.flag} {value}"
        raise InputError(f"{shown}: the position's rules have {option.name} {held!r}; a "
                         "position carries its rules (leave the option out)")


def add_options(parser, options) -> None:
    """Add ``options`` to an argparse parser, options of one ``group`` mutually exclusive."""
    groups = {}
    for option in options:
        target = parser
        if option.group is not None:
            if option.group not in groups:
                groups[option.group] = parser.add_mutually_exclusive_group()
            target = groups[option.group]
        option.add_to(target)


def values(args, options) -> dict:
    """The parsed values of ``options`` from an argparse namespace, by keyword name."""
    return {o.name: getattr(args, o.name) for o in options}


# Options several games declare alike.
# Rules options have no argparse default (None: not given), so that a position's rules are
# checked against every rule the command line names, a default's value included.
DEFAULT_PLAYERS = 2
PLAYERS = Option("--players", whole(2, 4, "players"), "2, 3 or 4 (default 2)", metavar="N")
THREADS = Option("--threads", whole(1, THREADS_MAX, "threads"), "threads (default 1)", default=1,
                 metavar="T")
SEED = Option("--seed", seed, "random seed (default 0)", default=0)
