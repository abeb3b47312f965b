"""Funkel Munkel positions as JSON, both directions: a full state or the public view (schema in
:func:`to_json`; reading checks every field and the totals, decision 9 of the rules)."""

import json

from solver.errors import InputError, shown as _shown
from solver.games.funkel.rules import (
    CARTS_PER_COLOUR,
    COLOURS,
    COMMON,
    COMMON_CARTS,
    GEM_COUNTS,
    GEMS,
    GEMS_PER_SHAFT,
    INFO,
    LAYOUTS,
    SHAFTS,
    Cart,
    CartView,
    PublicView,
    Rules,
    ShaftView,
    State,
    public_view,
    reached_goal,
    seen_gems,
    unseen_places,
    unseen_pool,
    used_colours,
)
from solver.games.jsontext import load_document

# --- positions as JSON ---------------------------------------------------------------------------

def to_json(position: State | PublicView) -> str:
    """A position as JSON. Schema (every field required)::

        {"game": "funkel", "rules_version": 1,
         "type": "state" | "view",                  a full state, or the public view (no unseen gem)
         "rules": {"players": 2..4, "layout": "pinwheel" | "crossing",
                   "hidden_shafts": bool, "max_pushes": int >= 1},
         "to_move": seat, "pushes": pushes made so far,
         "pending_gem": gem name | null,            a common cart's gem awaiting a display
         "hands": [int x 4],                        carts in hand per colour
         "supply": int,                             common carts beside the board
         "displays": [{gem name: count} x 4],       per colour; absent gems count 0
         "cells": [cart | null, one per cell id],
             state cart: {"kind": 0..3 | "common", "gem": gem name | null, "seen": bool}
             view cart:  {"kind": 0..3 | "common", "loaded": bool, "gem": gem name | null}
         "shafts": [8 x  state: [gem names, bottom first]
                         view: {"height": 0..7, "top": gem name | null}]}

    Gem names: grey, blue, purple, green, pink, yellow."""
    view = isinstance(position, PublicView)
    rules = position.rules
    name = lambda g: None if g is None else GEMS[g]  # noqa: E731
    kind = lambda k: "common" if k == COMMON else k  # noqa: E731
    if view:
        cells = [None if c is None else
                 {"kind": kind(c.kind), "loaded": c.loaded, "gem": name(c.gem)}
                 for c in position.cells]
        shafts = [{"height": s.height, "top": name(s.top)} for s in position.shafts]
    else:
        cells = [None if c is None else {"kind": kind(c.kind), "gem": name(c.gem), "seen": c.seen}
                 for c in position.cells]
        shafts = [[GEMS[g] for g in s] for s in position.shafts]
    doc = {
        "game": INFO.name, "rules_version": INFO.rules_version, "type": "view" if view else "state",
        "rules": {"players": rules.players, "layout": rules.layout,
                  "hidden_shafts": rules.hidden_shafts, "max_pushes": rules.max_pushes},
        "to_move": position.to_move, "pushes": position.pushes,
        "pending_gem": name(position.pending), "hands": list(position.hands),
        "supply": position.supply,
        "displays": [{GEMS[g]: n for g, n in enumerate(d) if n} for d in position.displays],
        "cells": cells, "shafts": shafts,
    }
    return json.dumps(doc)


# The kernel packs pushes and max_pushes into 16-bit fields (kernels/funkel.py, the control word).
MAX_PUSHES_LIMIT = (1 << 16) - 1


_TOP_FIELDS = ("game", "rules_version", "type", "rules", "to_move", "pushes", "pending_gem",
               "hands", "supply", "displays", "cells", "shafts")


def from_json(text: str | bytes) -> State | PublicView:
    """Read a position written by :func:`to_json` (text, or UTF-8 bytes); a bad one raises
    InputError naming the field, before anything reaches the kernel's packed state."""
    position = _read_document(load_document(text, "funkel"))
    _check_carts(position)
    _check_displays(position)
    _check_gems(position)
    return position


def _read_document(doc) -> State | PublicView:
    """A position from its parsed JSON, every field's type and range checked (the checks that
    keep the kernels safe); not yet whether its carts and gems add up."""
    _expect(isinstance(doc, dict), "position", "must be a JSON object")
    _check_fields(doc, _TOP_FIELDS, "position")
    _expect(doc["game"] == INFO.name, "game",
            f"must be {INFO.name!r}, got {_shown(doc['game'])}")
    _expect(type(doc["rules_version"]) is int and doc["rules_version"] == INFO.rules_version,
            "rules_version",
            f"must be {INFO.rules_version}, got {_shown(doc['rules_version'])}")
    _expect(doc["type"] in ("state", "view"), "type",
            f"must be 'state' or 'view', got {_shown(doc['type'])}")
    view = doc["type"] == "view"
    rules = _read_rules(doc["rules"])
    board = rules.board
    to_move = _int(doc["to_move"], "to_move", 0, rules.players - 1)
    pushes = _int(doc["pushes"], "pushes", 0, rules.max_pushes)
    pending = _gem_or_none(doc["pending_gem"], "pending_gem")
    _expect(pending is None or rules.players == 2, "pending_gem",
            "only a 2-player game waits for a display choice")
    hands = tuple(_int(n, f"hands[{c}]", 0, CARTS_PER_COLOUR)
                  for c, n in enumerate(_list(doc["hands"], "hands", COLOURS)))
    supply = _int(doc["supply"], "supply", 0, COMMON_CARTS + CARTS_PER_COLOUR)
    displays = tuple(_read_display(d, f"displays[{c}]")
                     for c, d in enumerate(_list(doc["displays"], "displays", COLOURS)))
    read_cart = _read_cart_view if view else _read_cart
    cells = tuple(None if c is None else read_cart(c, f"cells[{i}]", rules)
                  for i, c in enumerate(_list(doc["cells"], "cells", board.cell_count)))
    read_shaft = _read_shaft_view if view else _read_shaft
    shafts = tuple(read_shaft(s, f"shafts[{i}]", rules)
                   for i, s in enumerate(_list(doc["shafts"], "shafts", SHAFTS)))
    cls = PublicView if view else State
    return cls(rules, cells, shafts, hands, supply, displays, to_move, pushes, pending)


def _expect(ok: bool, field: str, why: str) -> None:
    if not ok:
        raise InputError(f"funkel position, field {field!r}: {why}")


def _check_fields(obj: dict, fields: tuple[str, ...], where: str) -> None:
    for f in fields:
        _expect(f in obj, f if where == "position" else f"{where}.{f}", "is missing")
    for f in obj:
        _expect(f in fields, f if where == "position" else f"{where}.{f}",
                "is not a known field")   # a huge name is cut by InputError's one line


def _int(value, field: str, low: int, high: int) -> int:
    _expect(isinstance(value, int) and not isinstance(value, bool), field,
            f"must be a whole number, got {_shown(value)}")
    _expect(low <= value <= high, field, f"must be {low}..{high}, got {_shown(value)}")
    return value


def _bool(value, field: str) -> bool:
    _expect(isinstance(value, bool), field, f"must be true or false, got {_shown(value)}")
    return value


def _list(value, field: str, length: int) -> list:
    _expect(isinstance(value, list), field, f"must be a list, got {_shown(value)}")
    _expect(len(value) == length, field, f"must have {length} entries, got {len(value)}")
    return value


def _gem_or_none(value, field: str) -> int | None:
    if value is None:
        return None
    _expect(isinstance(value, str) and value in GEMS, field,
            f"{_shown(value)} is not a gem ({', '.join(GEMS)})")
    return GEMS.index(value)


def _read_rules(obj) -> Rules:
    _expect(isinstance(obj, dict), "rules", "must be an object")
    _check_fields(obj, ("players", "layout", "hidden_shafts", "max_pushes"), "rules")
    players = _int(obj["players"], "rules.players", 2, 4)
    _expect(isinstance(obj["layout"], str) and obj["layout"] in LAYOUTS, "rules.layout",
            f"{_shown(obj['layout'])} is not a layout ({', '.join(LAYOUTS)})")
    max_pushes = _int(obj["max_pushes"], "rules.max_pushes", 1, MAX_PUSHES_LIMIT)
    hidden = _bool(obj["hidden_shafts"], "rules.hidden_shafts")
    return Rules(players, obj["layout"], hidden, max_pushes)


def _read_display(obj, field: str) -> tuple[int, ...]:
    _expect(isinstance(obj, dict), field, "must be an object {gem name: count}")
    for name in obj:
        _expect(name in GEMS, _shown(f"{field}.{name}"), f"is not a gem ({', '.join(GEMS)})")
    return tuple(_int(obj.get(name, 0), f"{field}.{name}", 0, GEM_COUNTS[g])
                 for g, name in enumerate(GEMS))


def _read_kind(value, field: str, rules: Rules) -> int:
    if value == "common":
        return COMMON
    colours = used_colours(rules.players)
    _expect(isinstance(value, int) and not isinstance(value, bool) and value in colours, field,
            f"must be 'common' or a colour in play ({', '.join(map(str, colours))}), "
            f"got {_shown(value)}")
    return value


def _read_cart(obj, field: str, rules: Rules) -> Cart:
    _expect(isinstance(obj, dict), field, "must be a cart object or null")
    _check_fields(obj, ("kind", "gem", "seen"), field)
    gem = _gem_or_none(obj["gem"], f"{field}.gem")
    seen = _bool(obj["seen"], f"{field}.seen")
    _expect(not seen or gem is not None, f"{field}.seen", "an empty cart has no seen gem")
    _expect(not seen or not rules.hidden_shafts, f"{field}.seen",
            "shafts are hidden: no gem was seen falling into a cart")
    return Cart(_read_kind(obj["kind"], f"{field}.kind", rules), gem, seen)


def _read_cart_view(obj, field: str, rules: Rules) -> CartView:
    _expect(isinstance(obj, dict), field, "must be a cart object or null")
    _check_fields(obj, ("kind", "loaded", "gem"), field)
    loaded = _bool(obj["loaded"], f"{field}.loaded")
    gem = _gem_or_none(obj["gem"], f"{field}.gem")
    _expect(loaded or gem is None, f"{field}.gem", "an empty cart holds no gem")
    _expect(gem is None or not rules.hidden_shafts, f"{field}.gem",
            "shafts are hidden: no gem was seen falling into a cart")
    return CartView(_read_kind(obj["kind"], f"{field}.kind", rules), loaded, gem)


def _read_shaft(obj, field: str, rules: Rules) -> tuple[int, ...]:
    _expect(isinstance(obj, list) and len(obj) <= GEMS_PER_SHAFT, field,
            f"must be a list of at most {GEMS_PER_SHAFT} gem names, bottom first")
    for i, gem in enumerate(obj):
        _expect(gem is not None, f"{field}[{i}]", "must be a gem name, got null")
    return tuple(_gem_or_none(gem, f"{field}[{i}]") for i, gem in enumerate(obj))


def _read_shaft_view(obj, field: str, rules: Rules) -> ShaftView:
    _expect(isinstance(obj, dict), field, "must be an object {height, top}")
    _check_fields(obj, ("height", "top"), field)
    height = _int(obj["height"], f"{field}.height", 0, GEMS_PER_SHAFT)
    top = _gem_or_none(obj["top"], f"{field}.top")
    if rules.hidden_shafts:
        _expect(top is None, f"{field}.top", "shafts are hidden: no top gem is seen")
    else:
        _expect((top is None) == (height == 0), f"{field}.top",
                "a shaft with gems shows its top gem; an empty one shows none")
    return ShaftView(height, top)


def _check_carts(position: State | PublicView) -> None:
    """Every cart is somewhere: 4 per colour in play, the common carts, no empty cart under gems."""
    rules, board = position.rules, position.rules.board
    on_board = [0] * (COLOURS + 1)
    for cell, cart in enumerate(position.cells):
        if cart is None:
            continue
        on_board[cart.kind] += 1
        shaft = board.shaft_at(cell)
        loaded = cart.loaded if isinstance(cart, CartView) else cart.gem is not None
        height = 0 if shaft is None else _height(position.shafts[shaft])
        _expect(loaded or height == 0, f"cells[{cell}]",
                f"an empty cart cannot stand under shaft {shaft}, which still holds gems")
    for colour in range(COLOURS):
        want = CARTS_PER_COLOUR if colour in used_colours(rules.players) else 0
        _expect(position.hands[colour] + on_board[colour] == want, f"hands[{colour}]",
                f"colour {colour} has {want} carts in play: {on_board[colour]} on the board "
                f"leaves {want - on_board[colour]} in hand, got {position.hands[colour]}")
    common = COMMON_CARTS + CARTS_PER_COLOUR * (COLOURS - len(used_colours(rules.players)))
    _expect(position.supply + on_board[COMMON] == common, "supply",
            f"{common} common carts in play: {on_board[COMMON]} on the board leaves "
            f"{common - on_board[COMMON]} beside it, got {position.supply}")


def _height(shaft: tuple[int, ...] | ShaftView) -> int:
    return shaft.height if isinstance(shaft, ShaftView) else len(shaft)


def _check_gems(position: State | PublicView) -> None:
    if isinstance(position, PublicView):
        seen = seen_gems(position)
        for g, n in enumerate(seen):
            _expect(n <= GEM_COUNTS[g], "displays/pending_gem/shafts/cells", f"{n} {GEMS[g]} "
                    f"gems are seen, the game has {GEM_COUNTS[g]}")
        pool = sum(GEM_COUNTS) - sum(seen)
        _expect(pool == unseen_places(position), "shafts", f"{unseen_places(position)} unseen "
                f"gem places (cart loads and shaft gems below the top), but {pool} unseen gems")
        return
    counts = [sum(d[g] for d in position.displays) for g in range(len(GEMS))]
    for gem in [c.gem for c in position.cells if c] + [g for s in position.shafts for g in s] + \
            [position.pending]:
        if gem is not None:
            counts[gem] += 1
    for g, n in enumerate(counts):
        _expect(n == GEM_COUNTS[g], "shafts/cells/displays/pending_gem",
                f"the position holds {n} {GEMS[g]} gems (shafts, "
                f"carts, displays, pending_gem), the game has {GEM_COUNTS[g]}")


def _check_displays(position: State | PublicView) -> None:
    players = position.rules.players
    for colour in range(COLOURS):
        if colour not in used_colours(players):
            _expect(not any(position.displays[colour]), f"displays[{colour}]",
                    f"colour {colour} is not played by {players} players")
    won = [c for c, d in enumerate(position.displays) if reached_goal(d)]
    _expect(len(won) <= 1, "displays", f"displays {won} all reached the goal; the game stops at "
            "the first")


# --- a position given as text or as an object ----------------------------------------------------

def read_position(position: str | State | PublicView) -> State | PublicView:
    """A position given as JSON text (``to_json``'s schema) or as an object. An object gets
    the reader's checks of every field's type and range (written out and read back, about
    0.15 ms): a hand-built one with a field out of range would otherwise reach the kernels,
    which trust their input. Whether its carts and gems add up is not asked of an object
    (tests build small positions that no game reaches)."""
    if isinstance(position, (State, PublicView)):
        try:
            doc = json.loads(to_json(position))
        except (AttributeError, IndexError, KeyError, OverflowError, TypeError,
                ValueError) as error:
            raise InputError(f"a malformed funkel {type(position).__name__}: "
                             f"{type(error).__name__}: {error}") from None
        return _read_document(doc)
    if not isinstance(position, str):
        raise InputError(f"a funkel position is JSON text, a State or a PublicView, got "
                         f"{type(position).__name__}")
    return from_json(position)


def view_of(position: str | State | PublicView) -> PublicView:
    """The public view of a position (a full state is reduced to what everyone sees), checked:
    its unseen pool must fill its unseen places."""
    pos = read_position(position)
    view = pos if isinstance(pos, PublicView) else public_view(pos)
    places, pool = unseen_places(view), len(unseen_pool(view))
    if places != pool:
        raise InputError(f"funkel position has {places} unseen gem places but {pool} unseen gems")
    return view


def check_seat(view: PublicView, seat: int | None, done: str) -> None:
    """Only the seat to move has actions to value (every player sees the same view)."""
    if seat is not None and seat != view.to_move:
        raise InputError(f"seat {_shown(seat)} is not to move (seat {view.to_move} is): every player "
                         f"sees the same, so only the mover's actions are {done}")
