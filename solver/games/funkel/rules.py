"""Funkel Munkel rules: the plain-Python reference (the oracle for the kernel).

The rulebook is ``shared/rules/funkel_munkel.txt``; ``shared/rules/DECISIONS.md`` fixes what it
leaves open (layouts, setup, push, gems, what is seen, win, 2 and 3 players, the no-winner end,
the start player). This module follows both, cart by cart, and never imports the compiled kernels.

Board: data, not code. A :class:`Layout` lists its rails as ordered cell ids (entrance first) and
the cells that lie under the 8 shafts. Built in (:data:`LAYOUTS`)::

    "pinwheel" (default): rail k = cells 4k..4k+3        "crossing": a # on a 5x5 grid
                                                            .  0* .  1  .    rail 0: column 1, N->S
      rail 0:  ENTRANCE  0*  1   2*  3   EXIT               2  3* 4  5* 6*   rail 1: column 3, S->N
      rail 1:  ENTRANCE  4*  5   6*  7   EXIT               .  7  .  8  .    rail 2: row 1, E->W
      rail 2:  ENTRANCE  8*  9  10* 11   EXIT               9* 10* 11 12* 13  rail 3: row 3, W->E
      rail 3:  ENTRANCE 12* 13  14* 15   EXIT               . 14  . 15* .
                                                          entrances 0, 15, 6, 9; 3 5 10 12 are
      * = under a shaft                                    crossings, shared by two rails

Carts start on the cells without a shaft: colour k's cart on rail k's second non-shaft cell from
the entrance (pinwheel c1, crossing the middle), a common cart on each rail's last cell.

Picture notation (used by :func:`draw` and the tests): a cart is its kind (``0``..``3`` a colour,
``C`` common) followed by its gem's letter when loaded (``g`` grey, ``b`` blue, ``p`` purple,
``n`` green, ``k`` pink, ``y`` yellow), ``.`` is an empty cell; e.g. ``0b . Cg .``.

Seats and colours: seat s plays colour s (4 players); with 3 players colour 3 is unused and its
carts are common carts; with 2 players seat s plays colours s and s+2 (see below).

Decisions beyond DECISIONS.md
-----------------------------
1. Colour k's starting cart stands on rail k; the crossing layout's rails are numbered column 1,
   column 3, row 1, row 3 and its cells row by row (picture above).
2. A push: the block of touching carts from the entrance cell moves one cell toward the exit and
   the new cart takes the entrance cell; if the block fills the rail, its last cart leaves. The
   leaving cart is paid out, then every empty cart under a non-empty shaft takes that shaft's
   bottom gem (the two never touch the same cart, so the order only fixes the record).
3. A shaft's top gem is its last gem: gems leave from the bottom. So when a shaft with one gem
   left drops it into a cart while tops are visible, everyone saw that gem: the cart's gem is
   public (``Cart.seen``), and the view shows it. With ``hidden_shafts`` nothing in a shaft is seen.
4. 2 players: seat s plays colours s and s+2 (colours on opposite rails); his pushes name the
   cart's colour. When a common cart's gem comes out on his push, the game waits for a separate
   decision :class:`Place` (``State.pending`` holds the gem, which everyone has now seen); the
   same seat then chooses one of his two displays, and only then is the turn over. Both displays
   are always offered. A pending choice is not a push, and the game is never over while one waits.
5. A pass (no own cart in hand, no common cart beside the board) hands the turn on and is not a
   push. Some seat can always push (22 carts, 16 cells), so passes cannot loop.
6. No-winner end: a seat's gems are all gems on his displays (both displays with 2 players), his
   colours the distinct gem colours among them. Seats tied on both share the draw:
   :func:`result` gives each of the k tied leaders 1/k. The 200-push limit counts pushes of any
   cart; a delivery on the last push is still checked for a win first.
7. The win test runs at every gem placed on a display (pushes and :class:`Place`); after a win
   the game is over and no action is legal. The turn still moves on after the winning push.
8. The hidden part is uniform: the seen gems (delivered ones, shaft tops, seen cart gems, the
   pending gem) were read off fixed places of a uniformly shuffled deal, so the unseen gems are a
   uniform arrangement of the unseen pool over the unseen places (carts' unseen gems, gems below
   shaft tops). :func:`sample_hidden` deals a shuffled pool into those places.
9. Positions as JSON (schema in :func:`to_json`); reading checks every field and the totals
   (4 carts per colour in play, 6 common carts plus 4 with 3 players, the 56 gems of the game),
   so only positions the game can hold are accepted (a state's gems match the game's exactly; a
   view's unseen places match its unseen pool).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from solver.errors import InputError, shown
from solver.options import check_players, check_whole
from solver.games import FACTS

INFO = FACTS["funkel"]
MAX_PUSHES_LIMIT = 65535    # the kernel keeps the push count and its limit in 16 bits

GEMS = ("grey", "blue", "purple", "green", "pink", "yellow")
GEM_LETTERS = "gbpnky"
GEM_COUNTS = (12, 11, 10, 9, 8, 6)   # 56 gems in all
SHAFTS = 8
GEMS_PER_SHAFT = 7
COLOURS = 4                          # cart colours (and jewel displays), one per seat at most
COMMON = 4                           # the kind of a common cart
CARTS_PER_COLOUR = 4                 # 1 on the board at the start + 3 in hand
COMMON_CARTS = 6                     # 4 on the board at the start + 2 beside it
GOAL_DIFFERENT = 6                   # a display with 6 different gems wins ...
GOAL_SAME = 5                        # ... or with 5 of one kind


# --- the board as data ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """Rails as cell ids from entrance to exit; shaft i lies over cell ``shaft_cells[i]``."""

    name: str
    rails: tuple[tuple[int, ...], ...]
    shaft_cells: tuple[int, ...]
    colour_cells: tuple[int, ...]    # colour k's starting cart
    common_cells: tuple[int, ...]    # the 4 common carts' starting cells

    @property
    def cell_count(self) -> int:
        return 1 + max(c for rail in self.rails for c in rail)

    def shaft_at(self, cell: int) -> int | None:
        return self.shaft_cells.index(cell) if cell in self.shaft_cells else None


def _pinwheel() -> Layout:
    rails = tuple(tuple(range(4 * k, 4 * k + 4)) for k in range(4))
    return Layout("pinwheel", rails, shaft_cells=tuple(c for r in rails for c in (r[0], r[2])),
                  colour_cells=tuple(r[1] for r in rails), common_cells=tuple(r[3] for r in rails))


def _crossing() -> Layout:
    grid = [(0, 1), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 3),
            (3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 3)]   # the 16 cells, row by row
    cell = {rc: i for i, rc in enumerate(grid)}
    lines = [[(r, 1) for r in range(5)],            # column 1, pushed north to south
             [(r, 3) for r in range(4, -1, -1)],    # column 3, south to north
             [(1, c) for c in range(4, -1, -1)],    # row 1, east to west
             [(3, c) for c in range(5)]]            # row 3, west to east
    rails = tuple(tuple(cell[rc] for rc in line) for line in lines)
    shafts = sorted({r[i] for r in rails for i in (0, 1, 3)})    # entrances and crossings
    return Layout("crossing", rails, shaft_cells=tuple(shafts),
                  colour_cells=tuple(r[2] for r in rails), common_cells=tuple(r[4] for r in rails))


LAYOUTS: dict[str, Layout] = {"pinwheel": _pinwheel(), "crossing": _crossing()}


# --- rules, carts, states ------------------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    players: int
    layout: str = "pinwheel"
    hidden_shafts: bool = False      # True: even the shafts' top gems are unseen
    max_pushes: int = 200

    def __post_init__(self):
        object.__setattr__(self, "players", check_players(self.players))
        if not isinstance(self.layout, str) or self.layout not in LAYOUTS:
            raise InputError(f"unknown layout {self.layout!r}: choose {', '.join(LAYOUTS)}")
        if not isinstance(self.hidden_shafts, bool):
            raise InputError(f"hidden_shafts must be True or False, got {shown(self.hidden_shafts)}")
        object.__setattr__(self, "max_pushes", check_whole(
            self.max_pushes, 1, MAX_PUSHES_LIMIT, "max_pushes",
            span=f"1..{MAX_PUSHES_LIMIT} (the packed state's 16-bit field)"))

    @property
    def board(self) -> Layout:
        return LAYOUTS[self.layout]


def colours_of(seat: int, players: int) -> tuple[int, ...]:
    """The cart colours (and displays) a seat plays."""
    return (seat, seat + 2) if players == 2 else (seat,)


def owner_of(colour: int, players: int) -> int | None:
    """The seat playing a colour; None for the colour nobody plays (3 players: common carts)."""
    if players == 2:
        return colour % 2
    return colour if colour < players else None


def used_colours(players: int) -> range:
    return range(COLOURS if players == 2 else players)


@dataclass(frozen=True)
class Cart:
    kind: int                 # colour 0..3, or COMMON
    gem: int | None = None    # None: empty
    seen: bool = False        # the gem is public: a shaft's last, face-up gem fell into the cart


@dataclass(frozen=True)
class State:
    """The full truth, hidden gems included. ``shafts[i]`` lists shaft i's gems bottom first."""

    rules: Rules
    cells: tuple[Cart | None, ...]
    shafts: tuple[tuple[int, ...], ...]
    hands: tuple[int, ...]                  # carts in hand, per colour
    supply: int                             # common carts beside the board
    displays: tuple[tuple[int, ...], ...]   # per colour: how many of each gem
    to_move: int = 0
    pushes: int = 0
    pending: int | None = None              # a common cart's gem waiting for a display (2 players)


@dataclass(frozen=True)
class CartView:
    kind: int
    loaded: bool
    gem: int | None = None    # only when the gem is public


@dataclass(frozen=True)
class ShaftView:
    height: int
    top: int | None           # None when empty or hidden


@dataclass(frozen=True)
class PublicView:
    """What every player knows (all players share it): everything but the unseen gems."""

    rules: Rules
    cells: tuple[CartView | None, ...]
    shafts: tuple[ShaftView, ...]
    hands: tuple[int, ...]
    supply: int
    displays: tuple[tuple[int, ...], ...]
    to_move: int = 0
    pushes: int = 0
    pending: int | None = None


@dataclass(frozen=True)
class Push:
    rail: int
    kind: int                 # the pushed cart: one of the mover's colours, or COMMON


@dataclass(frozen=True)
class Place:
    display: int              # the colour whose display takes the pending common-cart gem


@dataclass(frozen=True)
class Pass:
    """No cart of the mover's and no common cart left: the turn goes on."""


PASS = Pass()
Action = Push | Place | Pass


def new_game(rules: Rules, seed: int | None = None) -> State:
    """The set-up board: 56 shuffled gems, 7 per shaft; 8 empty carts on the shaftless cells."""
    gems = [g for g, n in enumerate(GEM_COUNTS) for _ in range(n)]
    random.Random(seed).shuffle(gems)
    board = rules.board
    cells: list[Cart | None] = [None] * board.cell_count
    for colour, cell in enumerate(board.colour_cells):
        cells[cell] = Cart(colour if owner_of(colour, rules.players) is not None else COMMON)
    for cell in board.common_cells:
        cells[cell] = Cart(COMMON)
    hands = tuple(CARTS_PER_COLOUR - 1 if c in used_colours(rules.players) else 0
                  for c in range(COLOURS))
    unused = COLOURS - len(used_colours(rules.players))   # 3 players: colour 3's 3 carts in hand
    return State(rules, tuple(cells),
                 shafts=tuple(tuple(gems[i * GEMS_PER_SHAFT:(i + 1) * GEMS_PER_SHAFT])
                              for i in range(SHAFTS)),
                 hands=hands, supply=COMMON_CARTS - 4 + unused * (CARTS_PER_COLOUR - 1),
                 displays=((0,) * len(GEMS),) * COLOURS)


# --- rules ---------------------------------------------------------------------------------------

def reached_goal(display: tuple[int, ...]) -> bool:
    return sum(1 for n in display if n) >= GOAL_DIFFERENT or max(display) >= GOAL_SAME


def goal_seat(state: State | PublicView) -> int | None:
    """The seat whose display reached the goal, if any (at most one: the game stops there)."""
    for colour, display in enumerate(state.displays):
        if reached_goal(display):
            return owner_of(colour, state.rules.players)
    return None


def gems_left(state: State | PublicView) -> bool:
    """Can a gem still be delivered: a shaft holds gems or a loaded cart is underground."""
    heights = (len(s) if isinstance(s, tuple) else s.height for s in state.shafts)
    loaded = (c.gem is not None if isinstance(c, Cart) else c.loaded for c in state.cells if c)
    return any(heights) or any(loaded)


def is_over(state: State | PublicView) -> bool:
    if goal_seat(state) is not None:
        return True
    if state.pending is not None:
        return False
    return state.pushes >= state.rules.max_pushes or not gems_left(state)


def standings(state: State | PublicView) -> list[tuple[int, int]]:
    """Per seat: (gems on his displays, distinct gem colours among them): the no-winner order."""
    out = []
    for seat in range(state.rules.players):
        totals = [sum(state.displays[c][g] for c in colours_of(seat, state.rules.players))
                  for g in range(len(GEMS))]
        out.append((sum(totals), sum(1 for n in totals if n)))
    return out


def result(state: State | PublicView) -> tuple[float, ...]:
    """Per seat: 1 for the winner, 0 for the others; tied leaders split 1 equally."""
    assert is_over(state), "the game is not over"
    players = state.rules.players
    seat = goal_seat(state)
    if seat is not None:
        return tuple(1.0 if s == seat else 0.0 for s in range(players))
    scores = standings(state)
    best = max(scores)
    leaders = [s for s in range(players) if scores[s] == best]
    return tuple(1.0 / len(leaders) if s in leaders else 0.0 for s in range(players))


def winner(state: State | PublicView) -> int | None:
    """The seat that won, or None for a shared result (a draw)."""
    outcome = result(state)
    return outcome.index(1.0) if 1.0 in outcome else None


def legal_actions(state: State | PublicView) -> list[Action]:
    """Pushes of an own cart (any rail); only if none is in hand, of a common cart; else a pass.
    With a common-cart gem pending: the choice of display. None once the game is over."""
    if is_over(state):
        return []
    players = state.rules.players
    colours = colours_of(state.to_move, players)
    if state.pending is not None:
        return [Place(c) for c in colours]
    rails = range(len(state.rules.board.rails))
    own = [Push(r, c) for c in colours if state.hands[c] for r in rails]
    if own:
        return own
    if state.supply:
        return [Push(r, COMMON) for r in rails]
    return [PASS]


def apply(state: State, action: Action) -> State:
    """The state after ``action`` (a new object; ``state`` is unchanged)."""
    if action not in legal_actions(state):
        raise InputError(f"illegal action {action} for seat {state.to_move}: legal are "
                         f"{', '.join(map(str, legal_actions(state))) or 'none (game over)'}")
    if isinstance(action, Pass):
        return replace(state, to_move=_next_seat(state))
    if isinstance(action, Place):
        return replace(state, displays=_add_gem(state.displays, action.display, state.pending),
                       pending=None, to_move=_next_seat(state))
    return _push(state, action)


def _next_seat(state: State) -> int:
    return (state.to_move + 1) % state.rules.players


def _add_gem(displays, colour: int, gem: int):
    row = list(displays[colour])
    row[gem] += 1
    return displays[:colour] + (tuple(row),) + displays[colour + 1:]


def _push(state: State, push: Push) -> State:
    rules = state.rules
    rail = rules.board.rails[push.rail]
    cells = list(state.cells)
    hands, supply = list(state.hands), state.supply
    if push.kind == COMMON:
        supply -= 1
    else:
        hands[push.kind] -= 1
    block = 0                            # touching carts from the entrance on
    while block < len(rail) and cells[rail[block]] is not None:
        block += 1
    leaving = cells[rail[-1]] if block == len(rail) else None
    for i in range(min(block, len(rail) - 1), 0, -1):   # carts behind a gap stay put
        cells[rail[i]] = cells[rail[i - 1]]
    cells[rail[0]] = Cart(push.kind)
    displays, pending = state.displays, None
    if leaving is not None:              # the cart comes out of the mine: pay out its gem
        if leaving.kind == COMMON:
            supply += 1
            if leaving.gem is not None:
                if rules.players == 2:
                    pending = leaving.gem                 # the active player picks a display
                else:
                    displays = _add_gem(displays, state.to_move, leaving.gem)
        else:
            hands[leaving.kind] += 1
            if leaving.gem is not None:
                displays = _add_gem(displays, leaving.kind, leaving.gem)
    shafts = list(state.shafts)
    for shaft, cell in enumerate(rules.board.shaft_cells):   # gems fall into empty carts only
        cart = cells[cell]
        if cart is not None and cart.gem is None and shafts[shaft]:
            seen = len(shafts[shaft]) == 1 and not rules.hidden_shafts
            cells[cell] = Cart(cart.kind, shafts[shaft][0], seen)
            shafts[shaft] = shafts[shaft][1:]
    after = replace(state, cells=tuple(cells), shafts=tuple(shafts), hands=tuple(hands),
                    supply=supply, displays=displays, pushes=state.pushes + 1, pending=pending)
    return after if pending is not None else replace(after, to_move=_next_seat(state))


# --- what is seen --------------------------------------------------------------------------------

def public_view(state: State) -> PublicView:
    hidden = state.rules.hidden_shafts
    cells = tuple(None if c is None else
                  CartView(c.kind, c.gem is not None, c.gem if c.seen else None)
                  for c in state.cells)
    shafts = tuple(ShaftView(len(s), s[-1] if s and not hidden else None) for s in state.shafts)
    return PublicView(state.rules, cells, shafts, state.hands, state.supply, state.displays,
                      state.to_move, state.pushes, state.pending)


def seen_gems(view: PublicView) -> list[int]:
    """Per gem colour, how many are public: on displays, pending, shaft tops, seen cart gems."""
    seen = [sum(d[g] for d in view.displays) for g in range(len(GEMS))]
    public = [s.top for s in view.shafts] + [c.gem for c in view.cells if c] + [view.pending]
    for gem in public:
        if gem is not None:
            seen[gem] += 1
    return seen


def unseen_places(view: PublicView) -> int:
    """Carts with an unseen gem plus shaft gems whose colour nobody has seen."""
    carts = sum(1 for c in view.cells if c and c.loaded and c.gem is None)
    return carts + sum(s.height - (s.top is not None) for s in view.shafts)


def unseen_pool(view: PublicView) -> list[int]:
    """The unseen gems, as a sorted list of gem indices."""
    seen = seen_gems(view)
    return [g for g, n in enumerate(GEM_COUNTS) for _ in range(n - seen[g])]


def sample_hidden(view: PublicView, rng: random.Random) -> State:
    """A full state drawn uniformly among those whose public view is ``view``."""
    pool = unseen_pool(view)
    if len(pool) != unseen_places(view):
        raise InputError(f"view has {unseen_places(view)} unseen places but {len(pool)} "
                         "unseen gems")
    rng.shuffle(pool)
    cells = []
    for c in view.cells:
        if c is None:
            cells.append(None)
        elif c.loaded:
            seen = c.gem is not None
            cells.append(Cart(c.kind, c.gem if seen else pool.pop(), seen))
        else:
            cells.append(Cart(c.kind))
    shafts = []
    for s in view.shafts:
        below = s.height - (s.top is not None)
        top = (s.top,) if s.top is not None else ()
        shafts.append(tuple(pool.pop() for _ in range(below)) + top)
    return State(view.rules, tuple(cells), tuple(shafts), view.hands, view.supply, view.displays,
                 view.to_move, view.pushes, view.pending)


# --- pictures ------------------------------------------------------------------------------------

def cart_token(cart: Cart | CartView | None) -> str:
    """``.`` no cart; kind (``0``..``3``, ``C``) then the gem's letter if loaded (``?`` unseen)."""
    if cart is None:
        return "."
    kind = "C" if cart.kind == COMMON else str(cart.kind)
    if cart.gem is not None:
        return kind + GEM_LETTERS[cart.gem]
    return kind + "?" if isinstance(cart, CartView) and cart.loaded else kind


def draw(state: State | PublicView) -> str:
    """One line per rail, entrance first; shaft cells marked ``*``; then hands and displays."""
    board = state.rules.board
    lines = []
    for r, rail in enumerate(board.rails):
        tokens = [cart_token(state.cells[c]) + ("*" if c in board.shaft_cells else "")
                  for c in rail]
        lines.append(f"rail {r}: " + " ".join(f"{t:4s}" for t in tokens).rstrip())
    lines.append(f"hands {list(state.hands)}  common {state.supply}  seat {state.to_move} to move"
                 f"  pushes {state.pushes}")
    for colour, display in enumerate(state.displays):
        gems = " ".join(f"{n}{GEM_LETTERS[g]}" for g, n in enumerate(display) if n)
        lines.append(f"display {colour}: {gems or '-'}")
    return "\n".join(lines)
