"""Tunhell's card table: every kind of card, its deck, its numbers and how many copies exist.

A card is a small integer, its kind's id (0..31): copies of one kind are interchangeable, so the
rules, the information sets and a C engine all hold cards as ``uint8`` ids into :data:`CARDS`.
Values are the publisher's printed cards as ``shared/rules/DECISIONS.md`` lists them.

=====  ==================  =====  =====  ===========================================
id     name                deck   count  numbers
=====  ==================  =====  =====  ===========================================
0-3    warrior-1..4        Dwarf  7 5 4 2 combat 1..4; 1 is "play now", 4 is proud
4-9    digger-C/B          Dwarf  4 4 1 5 4 1  dig C / combat bonus B; 2/0 is "play now"
10-11  scout-5, scout-3    Dwarf  2 3    looks at 5 / 3 cards; 3 is "play now"
12     dynamiter           Dwarf  2
13-19  dirt .. dragon      Mine   18 10 7 4 4 3 3  treasure 1 VP; enemies combat/VP below
20-27  machin .. ghost     Mine   1 each, beer 2, ring 2, ghost 2  (full game only)
28-31  back-door .. demon  End    1 each (full game only)
=====  ==================  =====  =====  ===========================================
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Deck(IntEnum):
    DWARF = 0   # 44 cards: hands, recruitment center, Dwarf pile and its discard pile
    MINE = 1    # 60 cards (49 without the full game's "+" cards); drawn cards never come back
    END = 2     # the 4 End of Mine cards (full game only), one under each mine, one in the box


class Role(IntEnum):
    WARRIOR = 0
    DIGGER = 1
    SCOUT = 2
    DYNAMITER = 3
    DIRT = 4
    TREASURE = 5
    ENEMY = 6
    BONUS = 7          # played together with a Digger: Nawak, the Old Pickaxe, the Beer of Courage
    RING = 8
    GOLDEN_HEART = 9
    GHOST = 10
    BACK_DOOR = 11
    THRONE_ROOM = 12


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    deck: Deck
    role: Role
    count: int
    combat: int = 0        # a Warrior's combat value, or an enemy's
    vp: int = 0            # victory points at the end (loot; Rings in hand; the Back Door)
    dig: int = 0           # a Digger's digging capacity
    bonus: int = 0         # a Digger's combat bonus
    explore: int = 0       # a Scout's exploration value
    play_now: bool = False  # must be played in the turn it is recruited
    proud: bool = False     # stop hand: a proud Warrior stands alone
    to_hand: bool = False   # hand symbol: once drawn it joins a hand
    full_only: bool = False  # "+" cards: only in the full game


def _table() -> tuple[Card, ...]:
    W, D, S, DY = Role.WARRIOR, Role.DIGGER, Role.SCOUT, Role.DYNAMITER
    dwarf, mine, end = Deck.DWARF, Deck.MINE, Deck.END
    rows = [
        Card(0, "warrior-1", dwarf, W, 7, combat=1, play_now=True),
        Card(1, "warrior-2", dwarf, W, 5, combat=2),
        Card(2, "warrior-3", dwarf, W, 4, combat=3),
        Card(3, "warrior-4", dwarf, W, 2, combat=4, proud=True),
        Card(4, "digger-2/0", dwarf, D, 4, dig=2, bonus=0, play_now=True),
        Card(5, "digger-2/+1", dwarf, D, 4, dig=2, bonus=1),
        Card(6, "digger-4/+3", dwarf, D, 1, dig=4, bonus=3),
        Card(7, "digger-1/+2", dwarf, D, 5, dig=1, bonus=2),
        Card(8, "digger-3/0", dwarf, D, 4, dig=3, bonus=0),
        Card(9, "digger-2/+5", dwarf, D, 1, dig=2, bonus=5),
        Card(10, "scout-5", dwarf, S, 2, explore=5),
        Card(11, "scout-3", dwarf, S, 3, explore=3, play_now=True),
        Card(12, "dynamiter", dwarf, DY, 2),
        Card(13, "dirt", mine, Role.DIRT, 18),
        Card(14, "treasure", mine, Role.TREASURE, 10, vp=1),
        Card(15, "rat", mine, Role.ENEMY, 7, combat=1, vp=0),
        Card(16, "goblin", mine, Role.ENEMY, 4, combat=2, vp=2),
        Card(17, "orc", mine, Role.ENEMY, 4, combat=3, vp=3),
        Card(18, "troll", mine, Role.ENEMY, 3, combat=4, vp=4),
        Card(19, "dragon", mine, Role.ENEMY, 3, combat=6, vp=6),
        Card(20, "machin", mine, D, 1, dig=4, bonus=0, to_hand=True, full_only=True),
        Card(21, "dwouarf", mine, W, 1, combat=0, to_hand=True, full_only=True),
        Card(22, "nawak", mine, Role.BONUS, 1, to_hand=True, full_only=True),
        Card(23, "pickaxe", mine, Role.BONUS, 1, to_hand=True, full_only=True),
        Card(24, "beer", mine, Role.BONUS, 2, to_hand=True, full_only=True),
        Card(25, "ring", mine, Role.RING, 2, vp=2, to_hand=True, full_only=True),
        Card(26, "golden-heart", mine, Role.GOLDEN_HEART, 1, vp=3, full_only=True),
        Card(27, "ghost", mine, Role.GHOST, 2, full_only=True),
        Card(28, "back-door", end, Role.BACK_DOOR, 1, vp=1, full_only=True),
        Card(29, "throne-room", end, Role.THRONE_ROOM, 1, vp=3, full_only=True),
        Card(30, "spider", end, Role.ENEMY, 1, combat=5, vp=5, full_only=True),
        Card(31, "demon", end, Role.ENEMY, 1, combat=7, vp=7, full_only=True),
    ]
    assert all(card.id == i for i, card in enumerate(rows))
    return tuple(rows)


CARDS: tuple[Card, ...] = _table()
KINDS = len(CARDS)
BY_NAME: dict[str, int] = {card.name: card.id for card in CARDS}

(WARRIOR_1, WARRIOR_2, WARRIOR_3, WARRIOR_4,
 DIGGER_2_0, DIGGER_2_1, DIGGER_4_3, DIGGER_1_2, DIGGER_3_0, DIGGER_2_5,
 SCOUT_5, SCOUT_3, DYNAMITER,
 DIRT, TREASURE, RAT, GOBLIN, ORC, TROLL, DRAGON,
 MACHIN, DWOUARF, NAWAK, PICKAXE, BEER, RING, GOLDEN_HEART, GHOST,
 BACK_DOOR, THRONE_ROOM, SPIDER, DEMON) = range(KINDS)

NO_CARD = -1
ALL_KINDS_MASK = (1 << KINDS) - 1
DWARF_KINDS = tuple(c.id for c in CARDS if c.deck == Deck.DWARF)
MINE_KINDS = tuple(c.id for c in CARDS if c.deck == Deck.MINE)
END_KINDS = tuple(c.id for c in CARDS if c.deck == Deck.END)
DIGGERS = tuple(c.id for c in CARDS if c.role == Role.DIGGER)
WARRIORS = tuple(c.id for c in CARDS if c.role == Role.WARRIOR)
# The Warriors a fight can spend, by rising value (Dwouarf is never spent on a win).
FIGHTERS = (WARRIOR_1, WARRIOR_2, WARRIOR_3, WARRIOR_4)


def mask_of(kinds) -> int:
    """Bit set of card kinds (bit k = kind k), the form the hand knowledge is kept in."""
    bits = 0
    for kind in kinds:
        bits |= 1 << kind
    return bits


def kinds_in(mask: int) -> tuple[int, ...]:
    return tuple(k for k in range(KINDS) if mask >> k & 1)


DIGGER_MASK = mask_of(DIGGERS)
DWARF_MASK = mask_of(DWARF_KINDS)


def game_cards(deck: Deck, intro: bool) -> dict[int, int]:
    """Copies of each kind of ``deck`` in a game (the introductory game leaves out "+" cards)."""
    return {c.id: c.count for c in CARDS if c.deck == deck and not (intro and c.full_only)}


def name(card: int) -> str:
    return CARDS[card].name
