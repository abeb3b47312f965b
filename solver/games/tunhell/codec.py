"""Tunhell positions as JSON: one seat's view, both directions (schema in :func:`to_json`)."""
from __future__ import annotations

import json

from solver.errors import shown as _shown
from solver.games.jsontext import load_document
from solver.games.tunhell.cards import (
    BY_NAME,
    NO_CARD,
    kinds_in,
    mask_of,
    name,
)
from solver.games.tunhell.infoset import (
    MAX_TURN,
    InfoSet,
    _expect,
    check_info,
    check_reachable,
)
from solver.games.tunhell.rules import (
    HAND_LIMIT,
    INFO,
    MINES,
    NO_MINE,
    NOBODY,
    Phase,
    Rules,
)

# --- positions as JSON ---------------------------------------------------------------------------

_PHASE_NAMES = {Phase.TURN: "turn", Phase.PLAY_NOW: "play-now", Phase.FIGHT: "fight",
                Phase.GOLDEN_HEART: "golden-heart", Phase.BACK_DOOR: "back-door",
                Phase.OVER: "over", Phase.DIG_ON: "dig-on"}
_PHASES = {text: phase for phase, text in _PHASE_NAMES.items()}


def _names(cards) -> list[str]:
    return [name(c) for c in cards]


def _or_null(value: int, none: int = NO_CARD, as_name: bool = False):
    if value == none:
        return None
    return name(value) if as_name else value


def _positions_from_top(mask: int, size: int) -> list[int]:
    return [size - 1 - pos for pos in range(size - 1, -1, -1) if mask >> pos & 1]


def to_json(info: InfoSet) -> str:
    """One player's view as JSON. Schema (every field required; cards are names from the card
    table, e.g. "warrior-2", "digger-2/+1", "dragon"; lists of cards are multisets, any order)::

        {"game": "tunhell", "rules_version": 2,
         "rules": {"players": 2..4, "intro": bool, "dig_may_stop": bool},
         "seat": viewer, "to_move": seat, "turn": turns played, "passes": passes in a row,
         "phase": "turn" | "play-now" | "fight" | "golden-heart" | "back-door" | "dig-on" |
                  "over",                dig-on: only with dig_may_stop, the Digger may stop
         "pending": card | null,       play-now: the card recruited; fight: the enemy;
                                       golden-heart / back-door: that card; else null
         "hand": [cards],              the viewer's whole hand
         "seats": [{"known": [cards],  what everyone knows this seat holds (recruits, Finds)
                    "hidden": int,     how many more cards he holds (dealt Dwarf cards)
                    "never": [cards],  kinds those hidden cards are known not to be
                    "warriors": [[cards] x 3],  in front of mines 0, 1, 2
                    "loot": [cards]} x players],
         "center": [cards],            the recruitment center
         "dwarf_pile": {"size": int, "top": card | null, "shuffles": int,
                        "below_top": [cards] | null},   known contents once reshuffled, else null
         "dwarf_discard": [cards], "mine_discard": [cards],
         "box": int,                   cards set aside at setup (never seen)
         "mines": [{"size": int,
                    "cards": [card | null] x size,      top first: what the viewer knows
                    "known_to": [[positions from the top] x players]} x 3],
         "door": null | {"owner": seat, "mine": 0..2 | null},
         "trophies": {"employee_of_the_month": seat | null, "exterminator": seat | null},
         "dig": null | {"mine": 0..2, "digger": card, "bonuses": [cards], "left": draws left}}
    """
    i = info
    mines = []
    for m in range(MINES):
        size = i.mine_sizes[m]
        cards: list = [None] * size
        for pos, card in i.mine_known[m]:
            cards[size - 1 - pos] = name(card)
        mines.append({"size": size, "cards": cards,
                      "known_to": [_positions_from_top(i.seen[o][m], size)
                                   for o in range(i.rules.players)]})
    seats = [{"known": _names(i.hand_seen[o]), "hidden": i.hidden[o],
              "never": _names(kinds_in(i.hand_never[o])),
              "warriors": [_names(w) for w in i.warriors[o]], "loot": _names(i.loot[o])}
             for o in range(i.rules.players)]
    doc = {
        "game": INFO.name, "rules_version": INFO.rules_version,
        "rules": {"players": i.rules.players, "intro": i.rules.intro,
                  "dig_may_stop": i.rules.dig_may_stop},
        "seat": i.seat, "to_move": i.to_move, "turn": i.turn, "passes": i.passes,
        "phase": _PHASE_NAMES[i.phase], "pending": _or_null(i.pending, as_name=True),
        "hand": _names(i.own_hand), "seats": seats, "center": _names(i.center),
        "dwarf_pile": {"size": i.pile_size, "top": _or_null(i.pile_top, as_name=True),
                       "shuffles": i.shuffles,
                       "below_top": None if i.pile_below is None else _names(i.pile_below)},
        "dwarf_discard": _names(i.dwarf_discard), "mine_discard": _names(i.mine_discard),
        "box": i.box_size, "mines": mines,
        "door": None if i.door_owner == NOBODY else
        {"owner": i.door_owner, "mine": _or_null(i.door_mine, NO_MINE)},
        "trophies": {"employee_of_the_month": _or_null(i.employee, NOBODY),
                     "exterminator": _or_null(i.exterminator, NOBODY)},
        "dig": None if i.digger == NO_CARD else
        {"mine": i.dig_mine, "digger": name(i.digger), "bonuses": _names(i.boosts),
         "left": i.dig_left},
    }
    return json.dumps(doc)


def from_json(text: str | bytes) -> InfoSet:
    """Read a view written by :func:`to_json` (text, or UTF-8 bytes); a bad one raises
    InputError naming the field. Everything the engine will hold is checked here first
    (:func:`check_info`): types, the ranges its packed state takes, card conservation, what the
    rules can reach, and that the seat to move has an action.

    Versions: ``rules_version`` 2 (written now) has ``rules.dig_may_stop``; a version-1 document
    (written before the option existed) has no such field and means compulsory digging. Any other
    version, or a field that disagrees with its version, is refused."""
    doc = load_document(text, "tunhell")
    r = _Reader()
    r.fields(doc, "position", ("game", "rules_version", "rules", "seat", "to_move", "turn",
                               "passes", "phase", "pending", "hand", "seats", "center",
                               "dwarf_pile", "dwarf_discard", "mine_discard", "box", "mines",
                               "door", "trophies", "dig"))
    _expect(doc["game"] == INFO.name, "game",
            f"must be {INFO.name!r}, got {_shown(doc['game'])}")
    rules = _read_rules(r, doc)
    n = rules.players
    _expect(isinstance(doc["phase"], str) and doc["phase"] in _PHASES, "phase",
            f"must be one of {', '.join(_PHASES)}, got {_shown(doc['phase'])}")
    seats = r.list(doc["seats"], "seats", n)
    for o, seat in enumerate(seats):
        r.fields(seat, f"seats[{o}]", ("known", "hidden", "never", "warriors", "loot"))
    mines = r.list(doc["mines"], "mines", MINES)
    mine_sizes, mine_known, seen = [], [], [[0] * MINES for _ in range(n)]
    for m, mine in enumerate(mines):
        where = f"mines[{m}]"
        r.fields(mine, where, ("size", "cards", "known_to"))
        size = r.int(mine["size"], f"{where}.size", 0, 99)
        cards = r.list(mine["cards"], f"{where}.cards", size)
        mine_sizes.append(size)
        mine_known.append(tuple(sorted((size - 1 - top, r.card(c, f"{where}.cards[{top}]"))
                                       for top, c in enumerate(cards) if c is not None)))
        for o, tops in enumerate(r.list(mine["known_to"], f"{where}.known_to", n)):
            for j, top in enumerate(r.list(tops, f"{where}.known_to[{o}]")):
                seen[o][m] |= 1 << (size - 1 - r.int(top, f"{where}.known_to[{o}][{j}]", 0,
                                                     size - 1))
    pile = doc["dwarf_pile"]
    r.fields(pile, "dwarf_pile", ("size", "top", "shuffles", "below_top"))
    door, dig, trophies = doc["door"], doc["dig"], doc["trophies"]
    if door is not None:
        r.fields(door, "door", ("owner", "mine"))
    if dig is not None:
        r.fields(dig, "dig", ("mine", "digger", "bonuses", "left"))
    r.fields(trophies, "trophies", ("employee_of_the_month", "exterminator"))
    info = InfoSet(
        rules=rules, seat=r.int(doc["seat"], "seat", 0, n - 1),
        to_move=r.int(doc["to_move"], "to_move", 0, n - 1), phase=_PHASES[doc["phase"]],
        turn=r.int(doc["turn"], "turn", 0, MAX_TURN), passes=r.int(doc["passes"], "passes", 0, n),
        pending=r.card_or_none(doc["pending"], "pending"), own_hand=r.cards(doc["hand"], "hand"),
        hand_seen=tuple(r.cards(s["known"], f"seats[{o}].known") for o, s in enumerate(seats)),
        hidden=tuple(r.int(s["hidden"], f"seats[{o}].hidden", 0, HAND_LIMIT)
                     for o, s in enumerate(seats)),
        hand_never=tuple(mask_of(r.cards(s["never"], f"seats[{o}].never"))
                         for o, s in enumerate(seats)),
        center=r.cards(doc["center"], "center"),
        pile_size=r.int(pile["size"], "dwarf_pile.size", 0, 44),
        pile_top=r.card_or_none(pile["top"], "dwarf_pile.top"),
        shuffles=r.int(pile["shuffles"], "dwarf_pile.shuffles", 0, MAX_TURN),
        pile_below=None if pile["below_top"] is None else
        r.cards(pile["below_top"], "dwarf_pile.below_top"),
        dwarf_discard=r.cards(doc["dwarf_discard"], "dwarf_discard"),
        mine_discard=r.cards(doc["mine_discard"], "mine_discard"),
        box_size=r.int(doc["box"], "box", 0, 99), mine_sizes=tuple(mine_sizes),
        mine_known=tuple(mine_known), seen=tuple(map(tuple, seen)),
        warriors=tuple(tuple(r.cards(w, f"seats[{o}].warriors[{m}]")
                             for m, w in enumerate(r.list(s["warriors"], f"seats[{o}].warriors",
                                                          MINES)))
                       for o, s in enumerate(seats)),
        loot=tuple(r.cards(s["loot"], f"seats[{o}].loot") for o, s in enumerate(seats)),
        door_owner=NOBODY if door is None else r.int(door["owner"], "door.owner", 0, n - 1),
        door_mine=NO_MINE if door is None or door["mine"] is None else
        r.int(door["mine"], "door.mine", 0, MINES - 1),
        employee=r.seat_or_none(trophies["employee_of_the_month"],
                                "trophies.employee_of_the_month", n),
        exterminator=r.seat_or_none(trophies["exterminator"], "trophies.exterminator", n),
        dig_mine=NO_MINE if dig is None else r.int(dig["mine"], "dig.mine", 0, MINES - 1),
        digger=NO_CARD if dig is None else r.card(dig["digger"], "dig.digger"),
        boosts=() if dig is None else r.cards(dig["bonuses"], "dig.bonuses"),
        dig_left=0 if dig is None else r.int(dig["left"], "dig.left", 0, 99))
    check_info(info)
    check_reachable(info)
    return info


READABLE_VERSIONS = (1, INFO.rules_version)   # 1: before the rule option dig_may_stop


def _read_rules(r: _Reader, doc: dict) -> Rules:
    """The rules of a document, by its rules_version: version 1 knows no dig_may_stop (digging
    is compulsory), version 2 must say it."""
    version = doc["rules_version"]
    _expect(type(version) is int and version in READABLE_VERSIONS, "rules_version",
            f"must be {' or '.join(map(str, READABLE_VERSIONS))}, got {_shown(version)}")
    if version == 1:
        _expect(not (isinstance(doc["rules"], dict) and "dig_may_stop" in doc["rules"]),
                "rules.dig_may_stop", "rules_version 1 has no dig_may_stop (it came with "
                "version 2): write rules_version 2")
        r.fields(doc["rules"], "rules", ("players", "intro"))
        may_stop = False
    else:
        r.fields(doc["rules"], "rules", ("players", "intro", "dig_may_stop"))
        may_stop = r.bool(doc["rules"]["dig_may_stop"], "rules.dig_may_stop")
    return Rules(r.int(doc["rules"]["players"], "rules.players", 2, 4),
                 r.bool(doc["rules"]["intro"], "rules.intro"), may_stop)


class _Reader:
    """Typed reads of JSON values; every failure names the field."""

    def fields(self, obj, where: str, names: tuple[str, ...]) -> None:
        _expect(isinstance(obj, dict), where, "must be a JSON object")
        missing = [f for f in names if f not in obj]
        extra = [f for f in obj if f not in names]
        _expect(not missing, where, f"missing field(s) {', '.join(missing)}")
        _expect(not extra, where, f"unknown field(s) {_shown(', '.join(extra), 60)}")

    def int(self, value, where: str, low: int, high: int | None = None) -> int:
        _expect(isinstance(value, int) and not isinstance(value, bool), where,
                f"must be a whole number, got {_shown(value)}")
        _expect(value >= low and (high is None or value <= high), where,
                f"must be {low}..{'' if high is None else high}, got {_shown(value)}")
        return value

    def bool(self, value, where: str) -> bool:
        _expect(isinstance(value, bool), where, f"must be true or false, got {_shown(value)}")
        return value

    def list(self, value, where: str, length: int | None = None) -> list:
        _expect(isinstance(value, list), where, "must be a list")
        _expect(length is None or len(value) == length, where,
                f"must have {length} entries, has {len(value)}")
        return value

    def card(self, value, where: str) -> int:
        _expect(isinstance(value, str) and value in BY_NAME, where,
                f"unknown card {_shown(value)}")
        return BY_NAME[value]

    def card_or_none(self, value, where: str) -> int:
        return NO_CARD if value is None else self.card(value, where)

    def cards(self, value, where: str) -> tuple[int, ...]:
        return tuple(sorted(self.card(c, f"{where}[{j}]")
                            for j, c in enumerate(self.list(value, where))))

    def seat_or_none(self, value, where: str, players: int) -> int:
        return NOBODY if value is None else self.int(value, where, 0, players - 1)
