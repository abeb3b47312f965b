"""Mancala, Kalah(m, n) rules: the plain-Python reference (the oracle for the kernel).

The rulebook is ``shared/rules/mancala.txt``; ``shared/rules/DECISIONS.md`` fixes what it leaves
open. This module follows both, stone by stone, and never imports the compiled kernels.

Board (m = 6), as the rulebook numbers it; sowing runs counter-clockwise::

          B's store  12 11 10  9  8  7
                    [  ][  ][  ][  ][  ][  ]
                    [  ][  ][  ][  ][  ][  ]   A's store
                      1  2  3  4  5  6

Sowing order: bins 1..m, A's store, bins m+1..2m, B's store, bin 1, ... A player never sows into
the opponent's store. Bin i (A's side) lies opposite bin 2m+1-i.

Position notation (round-trips with :func:`from_text` / :func:`to_text`; the capture rule is not
part of the text, it comes with the rules the text is read under)::

    P1,P2,...,Pm/Pm+1,...,P2m SA-SB X        e.g. the Kalah(6,4) start:
    4,4,4,4,4,4/4,4,4,4,4,4 0-0 A

Moves are named by the rulebook's bin numbers: A plays 1..m, B plays m+1..2m.

The game contract (the same names in every game of ``solver.games``): :func:`new_game`,
:func:`current_player`, :func:`legal_actions`, :func:`apply`, :func:`is_over`, :func:`result`,
:func:`to_text` / :func:`from_text`, :func:`action_to_text` / :func:`action_from_text`, :func:`draw`.
A :class:`Position` carries its capture rule, so ``apply`` needs nothing else.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from solver.errors import InputError, shown
from solver.options import is_whole
from solver.games import FACTS

INFO = FACTS["mancala"]

A, B = 0, 1
SIDE_NAMES = "AB"
MAX_PITS = 6          # the packed kernel keeps pits, store and rule flags in one uint64 per side
MAX_STONES_TOTAL = 255  # every count must fit an 8-bit lane of the packed state


@dataclass(frozen=True)
class Rules:
    """Kalah(pits, stones); ``capture_empty``: a capture also happens when the opposite pit is empty."""

    pits: int = 6
    stones: int = 4
    capture_empty: bool = True

    def __post_init__(self):
        object.__setattr__(self, "pits", _whole(self.pits, "pits per side"))
        object.__setattr__(self, "stones", _whole(self.stones, "stones per pit"))
        object.__setattr__(self, "capture_empty", _flag(self.capture_empty, "capture_empty"))
        if not 1 <= self.pits <= MAX_PITS:
            raise InputError(f"pits per side must be 1..{MAX_PITS}, got {shown(self.pits)}")
        if self.stones < 1:
            raise InputError(f"stones per pit must be at least 1, got {shown(self.stones)}")
        if 2 * self.pits * self.stones > MAX_STONES_TOTAL:
            raise InputError(f"Kalah({self.pits},{self.stones}) has {2 * self.pits * self.stones} "
                             f"stones; at most {MAX_STONES_TOTAL} fit the packed state")


@dataclass(frozen=True)
class Position:
    """``pits[i]`` holds bin i+1 (0..m-1: A's bins, m..2m-1: B's); ``stores`` = (A's, B's);
    ``capture_empty``: the capture rule it is played under (:class:`Rules`). The rule travels
    with the position so that :func:`apply` needs nothing else, but it is not part of the
    position's identity: equality and hashing look at the stones, the stores and the mover."""

    pits: tuple[int, ...]
    stores: tuple[int, int]
    to_move: int
    capture_empty: bool = field(default=True, compare=False)

    def __post_init__(self):
        # A hand-built position reaches the packed kernels, whose 8-bit counts would overflow
        # silently: the checks from_text makes, on the fields themselves.
        if type(self.pits) is not tuple or type(self.stores) is not tuple or \
                not all(type(n) is int and n >= 0 for n in self.pits + self.stores) or \
                type(self.to_move) is not int or type(self.capture_empty) is not bool:
            object.__setattr__(self, "pits", _counts(self.pits, "pits"))
            object.__setattr__(self, "stores", _counts(self.stores, "stores"))
            object.__setattr__(self, "to_move", _whole(self.to_move, "to_move"))
            object.__setattr__(self, "capture_empty", _flag(self.capture_empty, "capture_empty"))
        m, rest = divmod(len(self.pits), 2)
        if rest or not 1 <= m <= MAX_PITS:
            raise InputError(f"a position has 2..{2 * MAX_PITS} pits, the same number a side; "
                             f"got {len(self.pits)}")
        if len(self.stores) != 2:
            raise InputError(f"a position has two stores, got {len(self.stores)}")
        if self.to_move not in (A, B):
            raise InputError(f"to_move must be {A} (A) or {B} (B), got {shown(self.to_move)}")
        total = sum(self.pits) + sum(self.stores)
        if total > MAX_STONES_TOTAL:
            raise InputError(f"a position holds at most {MAX_STONES_TOTAL} stones (they must fit "
                             f"the packed state), got {shown(total)}")

    @property
    def m(self) -> int:
        return len(self.pits) // 2

    def side_pits(self, side: int) -> tuple[int, ...]:
        return self.pits[side * self.m:(side + 1) * self.m]

    def stones(self) -> int:
        return sum(self.pits) + sum(self.stores)

    def __str__(self) -> str:
        return to_text(self)


def _whole(value, what: str) -> int:
    """A whole number (an int or a NumPy integer, not a bool) as an int."""
    if not is_whole(value):
        raise InputError(f"{what} must be a whole number, got {shown(value)}")
    return int(value)


def _counts(values, what: str) -> tuple[int, ...]:
    """Stone counts: a sequence of whole numbers >= 0, as a tuple of ints."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (tuple, list)):
        raise InputError(f"{what} must be a tuple of stone counts, got {shown(values)}")
    counts = tuple(_whole(n, f"a count of {what}") for n in values)
    if any(n < 0 for n in counts):
        raise InputError(f"{what} must not be negative, got {shown(counts)}")
    return counts


def _flag(value, what: str) -> bool:
    """True or False (NumPy's booleans too), as a bool."""
    if isinstance(value, bool) or (getattr(getattr(value, "dtype", None), "kind", "") == "b"
                                    and getattr(value, "shape", None) == ()):
        return bool(value)
    raise InputError(f"{what} must be True or False, got {shown(value)}")


def new_game(rules: Rules = Rules(), seed: int | None = None) -> Position:
    """The start of Kalah(pits, stones); ``seed`` is ignored (the game has no chance)."""
    if not isinstance(rules, Rules):
        raise InputError(f"rules must be MancalaRules, got {shown(rules)}")
    return Position((rules.stones,) * (2 * rules.pits), (0, 0), A, rules.capture_empty)


def current_player(pos: Position) -> int:
    return _checked(pos).to_move


def _checked(pos) -> Position:
    """``pos``, if it is a Position: text, None or another game's state is an InputError (not
    an AttributeError from deep inside a rule)."""
    if not isinstance(pos, Position):
        raise InputError(f"a Mancala position is a Position (from_text reads one from text), "
                         f"got {type(pos).__name__}")
    return pos


# --- rules ---------------------------------------------------------------------------------------

def bins_of(side: int, m: int) -> range:
    """The bin numbers (1-based) a side plays from."""
    return range(side * m + 1, side * m + m + 1)


def legal_actions(pos: Position) -> list[int]:
    """Bin numbers the side to move may sow from; empty once the game is over."""
    if is_over(pos):
        return []
    return [b for b in bins_of(pos.to_move, pos.m) if pos.pits[b - 1] > 0]


def is_over(pos: Position) -> bool:
    """The game is over as soon as either side's bins are all empty."""
    _checked(pos)
    return not any(pos.side_pits(A)) or not any(pos.side_pits(B))


def final_stores(pos: Position) -> tuple[int, int]:
    """Stores once the game is over: each player puts the stones left in his bins in his store."""
    assert is_over(pos)
    return (pos.stores[A] + sum(pos.side_pits(A)), pos.stores[B] + sum(pos.side_pits(B)))


def score(pos: Position) -> int:
    """Final store difference from the side to move's view (a terminal position)."""
    a, b = final_stores(pos)
    return a - b if pos.to_move == A else b - a


def result(pos: Position) -> tuple[float, float]:
    """Per side (A, B) of a finished game: 1 for the larger final store, 0 for the smaller, a half
    each for a draw."""
    if not is_over(pos):
        raise InputError(f"the game is not over in {to_text(pos)}: it has no result yet")
    a, b = final_stores(pos)
    return (1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.5, 0.5)


def _sowing_cycle(side: int, m: int) -> list[int]:
    """The holes a player sows into, in order: 0..2m-1 are bins (0-based), -1 is his own store.

    The opponent's store is not in the cycle: it is always skipped."""
    own = list(range(side * m, side * m + m))
    theirs = list(range((1 - side) * m, (1 - side) * m + m))
    return own + [-1] + theirs


def apply(pos: Position, move: int) -> Position:
    """Sow from bin ``move`` (1-based) for the side to move, stone by stone (a new position)."""
    if not is_whole(move):      # True would be bin 1, 1.0 an index error
        raise InputError(f"a move is a bin number (a whole number), got {shown(move)}")
    if move not in legal_actions(pos):
        raise InputError(f"illegal move {shown(move)}: {SIDE_NAMES[pos.to_move]} may play "
                         f"{', '.join(map(str, legal_actions(pos))) or 'nothing (game over)'}")
    m, side = pos.m, pos.to_move
    pits, stores = list(pos.pits), list(pos.stores)
    cycle = _sowing_cycle(side, m)
    hand, pits[move - 1] = pits[move - 1], 0
    at = cycle.index(move - 1)
    while hand:  # with 2m+1 stones or more a lap passes the starting bin, which is not skipped
        at = (at + 1) % len(cycle)
        hole = cycle[at]
        if hole == -1:
            stores[side] += 1
        else:
            pits[hole] += 1
        hand -= 1
    last = cycle[at]
    extra_turn = last == -1
    if last != -1 and last // m == side and pits[last] == 1:  # last stone fell into an empty own bin
        opposite = 2 * m - 1 - last
        if pos.capture_empty or pits[opposite] > 0:
            stores[side] += 1 + pits[opposite]
            pits[last] = pits[opposite] = 0
    nxt = side if extra_turn else 1 - side
    after = Position(tuple(pits), (stores[A], stores[B]), nxt, pos.capture_empty)
    if is_over(after):
        after = Position((0,) * (2 * m), final_stores(after), nxt, pos.capture_empty)
    return after


# --- notation ------------------------------------------------------------------------------------

# re.ASCII: digits and blanks of other scripts ("٣", a no-break space) are not ours to read
_POSITION = re.compile(r"^\s*(\S+)\s+(\d{1,9})-(\d{1,9})\s+([AB])\s*$", re.ASCII)


def from_text(text: str, rules: Rules | None = None) -> Position:
    """Read ``P1,...,Pm/Pm+1,...,P2m SA-SB X``; with ``rules`` the bin and stone counts must fit
    and the position takes their capture rule (without: the default, captures from empty pits)."""
    if not isinstance(text, str):
        raise InputError(f"a position must be text, got {type(text).__name__}")
    if rules is not None and not isinstance(rules, Rules):
        raise InputError(f"rules must be MancalaRules, got {shown(rules)}")
    match = _POSITION.match(text)
    if not match:
        raise InputError(f"malformed position {_shown(text)}: expected 'P1,...,Pm/Pm+1,...,P2m "
                         f"SA-SB X' such as '4,4,4,4,4,4/4,4,4,4,4,4 0-0 A'")
    groups = match.group(1).split("/")
    if len(groups) != 2:
        raise InputError(f"malformed position {_shown(text)}: the bins need two groups "
                         f"separated by '/' (A's bins, then B's)")
    sides = [_parse_counts(g, name) for g, name in zip(groups, "AB")]
    if len(sides[0]) != len(sides[1]):
        raise InputError(f"A has {len(sides[0])} bins but B has {len(sides[1])}: both sides need "
                         f"the same number")
    m = len(sides[0])
    if rules is not None and m != rules.pits:
        raise InputError(f"position has {m} bins per side, but the rules say {rules.pits}")
    if not 1 <= m <= MAX_PITS:
        raise InputError(f"position has {m} bins per side; 1..{MAX_PITS} are supported")
    pits, stores = tuple(sides[0] + sides[1]), (int(match.group(2)), int(match.group(3)))
    total = sum(pits) + sum(stores)
    if total > MAX_STONES_TOTAL:
        raise InputError(f"position holds {total} stones; at most {MAX_STONES_TOTAL} fit the "
                         f"packed state")
    if total == 0:
        raise InputError("position holds no stones at all")
    if rules is not None and total != 2 * rules.pits * rules.stones:
        raise InputError(f"position holds {total} stones, but Kalah({rules.pits},{rules.stones}) "
                         f"has {2 * rules.pits * rules.stones}")
    return Position(pits, stores, SIDE_NAMES.index(match.group(4)),
                    True if rules is None else rules.capture_empty)


def _shown(text: str, limit: int = 60) -> str:
    """A piece of bad input quoted in an error: on one line, and not too long."""
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _parse_counts(group: str, side: str) -> list[int]:
    counts = []
    for text in group.split(","):
        if not re.fullmatch(r"\s*-?\d{1,9}\s*", text, re.ASCII):
            raise InputError(f"bin count {text[:20]!r} on {side}'s side is not a whole number "
                             f"(of at most 9 digits)")
        value = int(text)
        if value < 0:
            raise InputError(f"bin count {value} on {side}'s side is negative")
        counts.append(value)
    return counts


def to_text(pos: Position) -> str:
    a, b = _checked(pos).side_pits(A), pos.side_pits(B)
    return (f"{','.join(map(str, a))}/{','.join(map(str, b))} "
            f"{pos.stores[A]}-{pos.stores[B]} {SIDE_NAMES[pos.to_move]}")


def action_to_text(pos: Position, move: int) -> str:
    return str(move)


def action_from_text(pos: Position, text: str) -> int:
    """A move by bin number; it must be a legal move of the side to move."""
    if not re.fullmatch(r"\s*\d{1,9}\s*", text, re.ASCII):
        raise InputError(f"move {_shown(text)} is not a bin number")
    move = int(text)
    if move in legal_actions(pos):
        return move
    own = bins_of(pos.to_move, pos.m)
    if is_over(pos):
        why = "the game is over"
    elif not 1 <= move <= 2 * pos.m:
        why = f"there is no bin {move}"
    elif move not in own:
        why = f"bin {move} belongs to {SIDE_NAMES[1 - pos.to_move]}"
    else:
        why = f"bin {move} is empty"
    raise InputError(f"illegal move {move} for {SIDE_NAMES[pos.to_move]}: {why}")


def draw(pos: Position) -> str:
    """The board as the rulebook pictures it: B's bins on top (right to left), A's below, each
    store at its owner's right hand, bin numbers outside."""
    m = _checked(pos).m
    row = lambda bins: "".join(f"{pos.pits[i]:3d}" for i in bins)  # noqa: E731
    numbers = lambda bins: "".join(f"{i + 1:3d}" for i in bins)  # noqa: E731
    b_bins, a_bins = range(2 * m - 1, m - 1, -1), range(m)
    mover = f"{SIDE_NAMES[pos.to_move]} to move"
    return "\n".join([
        f"      {numbers(b_bins)}",
        f"[{pos.stores[B]:3d}] {row(b_bins)}" + ("   <- " + mover if pos.to_move == B else ""),
        f"      {row(a_bins)}  [{pos.stores[A]:3d}]" + ("   <- " + mover if pos.to_move == A else ""),
        f"      {numbers(a_bins)}",
    ])


# --- a position and the rules it is played under ---------------------------------------------

def position_and_rules(position: Position | str | None = None, pits: int | None = None,
                       stones: int | None = None, capture_empty: bool | None = None
                       ) -> tuple[Position, Rules]:
    """The position (the start when None) and the rules it is played under. ``pits`` and
    ``stones`` default to what the position shows and are checked against it when given;
    ``capture_empty`` to the position's own rule (the default rule for text and the start)."""
    if position is None:
        rules = Rules(6 if pits is None else pits, 4 if stones is None else stones,
                      True if capture_empty is None else capture_empty)
        return new_game(rules), rules
    if not isinstance(position, (str, Position)):
        raise InputError(f"a position must be a MancalaPosition or its text, got {shown(position)}")
    pos = from_text(position) if isinstance(position, str) else position
    if capture_empty is None:
        capture_empty = pos.capture_empty
    pos = replace(pos, capture_empty=capture_empty)
    if pits is not None and pits != pos.m:
        raise InputError(f"position has {pos.m} bins per side, but pits is {pits!r}")
    if stones is not None and pos.stones() != 2 * pos.m * stones:
        raise InputError(f"position holds {pos.stones()} stones, but Kalah({pos.m},{stones}) "
                         f"has {2 * pos.m * stones}")
    if stones is None:  # stones per pit only names the game; infer it, within the lane limit
        stones = min(max(1, pos.stones() // (2 * pos.m)), MAX_STONES_TOTAL // (2 * pos.m))
    return pos, Rules(pos.m, stones, capture_empty)


def playable_position(position: Position | str | None, rules: Rules | None
                      ) -> tuple[Position, Rules]:
    """The position to search (the start of ``rules`` when None) and its rules; a finished
    game is refused. Without ``rules`` a position keeps the default capture rule."""
    if rules is not None and not isinstance(rules, Rules):
        raise InputError(f"rules must be MancalaRules, got {shown(rules)}")
    if rules is None:
        pos, rules = position_and_rules(position)
    else:
        pos, rules = position_and_rules(position, rules.pits, None if position is not None
                                        else rules.stones, rules.capture_empty)
    if is_over(pos):
        raise InputError(f"the game is over in {to_text(pos)}: final stores "
                         f"{'-'.join(map(str, final_stores(pos)))}")
    return pos, rules
