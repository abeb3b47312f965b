"""Bridges from the registry's games to other ecosystems (optional extras).

``solver.adapters.openspiel`` registers ``solver_mancala``, ``solver_funkel`` and
``solver_tunhell`` as pyspiel Python games (extra ``solver[openspiel]``);
``solver.adapters.pettingzoo`` offers the AEC environments ``mancala_v0``, ``funkel_v0`` and
``tunhell_v0`` (extra ``solver[pettingzoo]``). Both sit on this module: one :class:`Bridge` per
game over the game contract of :mod:`solver.games`. The base class does everything the
contract gives (whose turn, legal actions, the next state, results, what a seat knows); a game
adds its action numbering, its features and, when its chance is not plain, its chance nodes.
A new game that numbers its actions needs a small subclass and one entry in :data:`BRIDGES`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

import numpy as np

from solver import games

# The ecosystems want three things our contract leaves to each game: actions as small whole
# numbers (0 <= id < num_actions), chance as explicit nodes with probabilities, and a numeric
# picture of what a seat knows. A :class:`Bridge` per game supplies them over a *node*: the
# adapter's state (a reference state, or a Funkel view waiting on a reveal). Everything else
# (whose turn, legal actions, the next state, results, what a seat knows, sampling) is the
# game's own reference, called by its contract names.

CHANCE = -1   # current_player of a chance node


def returns_of(shares) -> list[float]:
    """Our result (shares summing to 1) as zero-sum returns: n * share - 1 (2 players: +1 / 0 /
    -1; n players: the winner n - 1, each loser -1)."""
    n = len(shares)
    return [n * s - 1.0 for s in shares]


class Bridge:
    """The per-game part of the adapters. Subclasses set ``name`` and ``params`` (the rule
    options with their defaults, as OpenSpiel game parameters) and override what differs."""

    name = ""
    params: dict = {}
    perfect_information = True     # as the ecosystems see the adapted game (Funkel: True)
    chance = "none"                # "none", "explicit" (outcomes listed) or "sampled"
    max_chance_outcomes = 0
    extra_params: dict = {}        # OpenSpiel-only parameters (not rules)

    def __init__(self, **params):
        unknown = set(params) - set(self.params)
        if unknown:
            raise ValueError(f"{self.name}: unknown parameters {sorted(unknown)}")
        self.values = {**self.params, **params}
        self.game = games.get(self.name)
        self.ref = self.game.reference()
        self.rules = self.make_rules(self.values)

    def make_rules(self, values):
        return self.game.rules(**values)

    # --- facts ---
    @property
    def players(self) -> int:
        return getattr(self.rules, "players", 2)

    def num_actions(self) -> int:
        raise NotImplementedError

    def max_game_length(self) -> int:
        raise NotImplementedError

    # --- nodes ---
    def start(self):
        return self.ref.new_game(self.rules, 0)

    def is_chance(self, node) -> bool:
        return False

    def chance_outcomes(self, node) -> list[tuple[int, float]]:
        return []

    def apply_chance(self, node, outcome: int, rng: random.Random):
        raise NotImplementedError

    def state_of(self, node):
        """The reference state (or view) the contract functions take."""
        return node

    def node_of(self, state):
        """The node of a reference state (for tests and for positions given by the user)."""
        return state

    def current_player(self, node) -> int:
        return CHANCE if self.is_chance(node) else self.ref.current_player(self.state_of(node))

    def is_over(self, node) -> bool:
        return not self.is_chance(node) and self.ref.is_over(self.state_of(node))

    def legal_actions(self, node) -> list:
        return self.ref.legal_actions(self.state_of(node))

    def legal_ids(self, node) -> list[int]:
        return sorted(self.action_id(a) for a in self.legal_actions(node))

    def apply_id(self, node, action_id: int):
        return self.ref.apply(self.state_of(node), self.action_of(action_id))

    def shares(self, node) -> tuple[float, ...]:
        return tuple(self.ref.result(self.state_of(node)))

    def action_id(self, action) -> int:
        raise NotImplementedError

    def action_of(self, action_id: int):
        raise NotImplementedError

    def action_text(self, node, action_id: int) -> str:
        return self.ref.action_to_text(self.state_of(node), self.action_of(action_id))

    # --- knowledge ---
    def knowledge(self, node, seat: int) -> str:
        """Everything ``seat`` knows, as text (the game's codec of ``observe``)."""
        return self.ref.to_text(self.view(node, seat))

    def view(self, node, seat: int):
        return self.state_of(node)

    def feature_size(self) -> int:
        raise NotImplementedError

    def features(self, node, seat: int) -> np.ndarray:
        raise NotImplementedError

    def resample(self, node, seat: int, rng: random.Random):
        """A node drawn among those ``seat`` cannot tell apart from ``node``."""
        return node

    def draw(self, node) -> str:
        return self.ref.draw(self.state_of(node))


def one_hot(size: int, index) -> list[float]:
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


# --- Mancala: perfect information, no chance ----------------------------------------------------

class MancalaBridge(Bridge):
    """Action id = bin number - 1 (0..2m-1: A's bins, then B's), as the reference numbers bins."""

    name = "mancala"
    params = {"pits": 6, "stones": 4, "capture_empty": True}

    def num_actions(self) -> int:
        return 2 * self.rules.pits

    def max_game_length(self) -> int:
        # every sowing moves at least one stone one step closer to a store, and a stone that
        # reaches a store stays there: (stones) x (steps around the board) bounds the game
        return 2 * self.rules.pits * self.rules.stones * (2 * self.rules.pits + 1)

    def start(self):
        return self.ref.new_game(self.rules)

    def action_id(self, action: int) -> int:
        return action - 1

    def action_of(self, action_id: int) -> int:
        return action_id + 1

    def knowledge(self, node, seat: int) -> str:
        return self.ref.to_text(node)

    def feature_size(self) -> int:
        return 2 * self.rules.pits + 2 + 2

    def features(self, node, seat: int) -> np.ndarray:
        return np.array(list(node.pits) + list(node.stores) + one_hot(2, node.to_move),
                        np.float32)


# --- Funkel Munkel: shared knowledge, chance at every reveal ------------------------------------

@dataclass(frozen=True)
class FunkelNode:
    """What every seat knows (the public view), and a reveal that chance still owes:
    ``tops_left`` shaft tops still to turn up at setup, or ``push`` waiting for the gem of the
    unseen cart it pushes out of the mine."""

    view: object
    tops_left: int = 0
    push: object = None


class FunkelBridge(Bridge):
    """Every seat of Funkel Munkel sees the same view, and the unseen gems are a uniform
    arrangement of the unseen pool (rules decision 8): so the game is a perfect-information game
    with chance nodes where a gem becomes public (the 8 shaft tops at setup unless
    ``hidden_shafts``; an unseen cart leaving the mine), each colour drawn with probability
    (its unseen count) / (the unseen pool). Gems that fall into carts unseen stay undecided.

    Action ids: Push(rail, kind) = 5 * rail + kind (kind 4: common), Place(d) = 20 + d, Pass 24.
    Chance outcome = the gem colour (0..5)."""

    name = "funkel"
    params = {"players": 2, "layout": "pinwheel", "hidden_shafts": False}
    chance = "explicit"
    max_chance_outcomes = 6

    def num_actions(self) -> int:
        return 25

    def max_game_length(self) -> int:
        # pushes are capped; each may bring a Place, a reveal and a round of passes
        return self.rules.max_pushes * (self.players + 2) + 8

    def start(self):
        truth = self.ref.new_game(self.rules, 0)
        view = self.ref.public_view(truth)
        if self.rules.hidden_shafts:
            return FunkelNode(view)
        blank = tuple(self.ref.ShaftView(s.height, None) for s in view.shafts)
        return FunkelNode(replace(view, shafts=blank), tops_left=len(blank))

    def is_chance(self, node) -> bool:
        return node.tops_left > 0 or node.push is not None

    def node_of(self, state):
        return FunkelNode(self.ref.public_view(state) if isinstance(state, self.ref.State)
                          else state)

    def state_of(self, node):
        return node.view

    def chance_outcomes(self, node):
        """Each gem colour with its share of the unseen pool (at setup the tops not yet turned
        up are unseen places like any other)."""
        pool = self.ref.unseen_pool(node.view)
        return [(g, pool.count(g) / len(pool)) for g in sorted(set(pool))]

    def apply_chance(self, node, gem: int, rng=None):
        view = node.view
        if node.tops_left:
            i = len(view.shafts) - node.tops_left
            shafts = list(view.shafts)
            shafts[i] = self.ref.ShaftView(shafts[i].height, gem)
            return FunkelNode(replace(view, shafts=tuple(shafts)), node.tops_left - 1)
        truth = self._truth_with(view, node.push, gem)
        return FunkelNode(self.ref.public_view(self.ref.apply(truth, node.push)))

    def apply_id(self, node, action_id: int):
        action = self.action_of(action_id)
        if action not in self.ref.legal_actions(node.view):
            raise ValueError(f"illegal action {action_id} ({action})")
        if self._leaving_unseen(node.view, action) is not None:
            return FunkelNode(node.view, push=action)
        truth = self.ref.sample_hidden(node.view, random.Random(0))
        return FunkelNode(self.ref.public_view(self.ref.apply(truth, action)))

    def _leaving_unseen(self, view, action):
        """The cell of the cart this push takes out of the mine when its gem is unseen."""
        if not isinstance(action, self.ref.Push):
            return None
        rail = self.rules.board.rails[action.rail]
        if any(view.cells[c] is None for c in rail):
            return None
        last = view.cells[rail[-1]]
        return rail[-1] if last.loaded and last.gem is None else None

    def _truth_with(self, view, push, gem: int):
        """A full state behind ``view`` whose leaving cart holds ``gem`` (what else is hidden
        does not matter: it stays hidden after the push)."""
        cell = self._leaving_unseen(view, push)
        truth = self.ref.sample_hidden(view, random.Random(0))
        if truth.cells[cell].gem == gem:
            return truth
        cells, shafts = list(truth.cells), [list(s) for s in truth.shafts]
        for c, cart in enumerate(cells):     # swap with another unseen place holding ``gem``
            if cart is not None and cart.gem == gem and not cart.seen and view.cells[c].gem \
                    is None and c != cell:
                cells[c] = replace(cart, gem=truth.cells[cell].gem)
                cells[cell] = replace(truth.cells[cell], gem=gem)
                return replace(truth, cells=tuple(cells))
        for s, shaft in enumerate(shafts):
            below = len(shaft) - (view.shafts[s].top is not None)
            for k in range(below):
                if shaft[k] == gem:
                    shaft[k] = truth.cells[cell].gem
                    cells[cell] = replace(truth.cells[cell], gem=gem)
                    return replace(truth, cells=tuple(cells),
                                   shafts=tuple(map(tuple, shafts)))
        raise ValueError(f"gem {gem} is not in the unseen pool")

    def action_id(self, action) -> int:
        if isinstance(action, self.ref.Push):
            return 5 * action.rail + action.kind
        if isinstance(action, self.ref.Place):
            return 20 + action.display
        return 24

    def action_of(self, action_id: int):
        if action_id < 20:
            return self.ref.Push(action_id // 5, action_id % 5)
        if action_id < 24:
            return self.ref.Place(action_id - 20)
        return self.ref.PASS

    def knowledge(self, node, seat: int) -> str:
        text = self.ref.to_text(node.view)
        if node.push is not None:
            text += f" push {self.action_id(node.push)} awaits its gem"
        if node.tops_left:
            text += f" {node.tops_left} tops to turn up"
        return text

    def feature_size(self) -> int:
        cells = self.rules.board.cell_count
        return cells * 12 + 8 * 8 + 4 + 1 + 24 + 4 + 1 + 7

    def features(self, node, seat: int) -> np.ndarray:
        v = node.view
        out: list[float] = []
        for c in v.cells:       # kind (5), loaded, gem (6)
            out += one_hot(5, None if c is None else c.kind) + [float(bool(c and c.loaded))] \
                + one_hot(6, None if c is None else c.gem)
        for s in v.shafts:      # height / 7, top (6), top unknown
            out += [s.height / 7.0] + one_hot(6, s.top) + [float(s.top is None)]
        out += [h / 3.0 for h in v.hands] + [v.supply / 6.0]
        out += [n / 5.0 for d in v.displays for n in d]
        out += one_hot(4, v.to_move) + [v.pushes / v.rules.max_pushes] + one_hot(7, v.pending)
        return np.array(out, np.float32)

    def draw(self, node) -> str:
        return self.ref.draw(node.view)


# --- Tunhell: private hands and peeks; the truth carries its own chance generator ----------------

class TunhellNode:
    """A Tunhell node: the engine's game and, made on first request, its reference state.
    Never changed once made (a move clones the engine), so a copy is the node itself."""

    __slots__ = ("engine", "_truth", "_bridge")

    def __init__(self, engine, truth=None):
        self.engine, self._truth = engine, truth

    def truth(self):
        if self._truth is None:
            from solver.games.tunhell.engine import to_reference
            self._truth = to_reference(self.engine)
        return self._truth

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self


# An action id packs the reference Action's fields move by move (mixed radix): card (32 kinds),
# mine (3), a Digger's Bonuses (Nawak 0..1, Pickaxe 0..1, Beer 0..3), a fight's Warriors spent
# (0..7 of each value 1..4) and the Digger's bonus used.
_KINDS, _MINES = 32, 3


class TunhellBridge(Bridge):
    """The deal and every later draw (pile reshuffles, the Ghost) come from the splitmix64
    generator the truth carries (rules: "Chance"), so the adapted game has one chance node, the
    deal, whose single outcome draws the deal's seed from the caller's generator (OpenSpiel's
    sampled-stochastic mode); what the generator will give is hidden in the truth."""

    name = "tunhell"
    params = {"players": 2, "intro": False}
    perfect_information = False
    chance = "sampled"
    max_chance_outcomes = 1
    extra_params = {"rng_seed": -1}    # the deal's generator (-1: a fresh seed)

    def __init__(self, **params):
        super().__init__(**params)
        from solver.games.tunhell import cards
        self.cards = cards
        self.engine = self.game.engine()      # the Cython engine's bridge
        self.move = self.ref.Move
        self._ids: dict = {}
        self._actions: list = []

    def num_actions(self) -> int:
        return len(self._table())

    def max_game_length(self) -> int:
        return 2000

    def _table(self) -> list:
        """Every action the encoding can name, in id order (built once per bridge)."""
        if self._actions:
            return self._actions
        M, A, c = self.move, self.ref.Action, self.cards
        acts = [A(M.PASS)]
        acts += [A(M.RECRUIT, k) for k in range(_KINDS)]
        for move in (M.WARRIOR, M.SCOUT, M.DYNAMITE):
            acts += [A(move, k, m) for k in range(_KINDS) for m in range(_MINES)]
        for k in range(_KINDS):
            for m in range(_MINES):
                for sw in range(2):
                    for pk in range(2):
                        for br in range(4):
                            acts.append(A(M.DIGGER, k, m,
                                          (c.NAWAK,) * sw + (c.PICKAXE,) * pk + (c.BEER,) * br))
        warriors = [k for k in range(_KINDS) if c.CARDS[k].role == c.Role.WARRIOR]
        for counts in np.ndindex(8, 8, 8, 8):
            spent = tuple(w for w, n in zip(warriors, counts) for _ in range(n))
            acts += [A(M.FIGHT, cards=spent, use_digger=u) for u in (False, True)]
        acts += [A(M.HEART, k) for k in range(_KINDS)]
        acts += [A(M.DOOR, mine=m) for m in range(_MINES)]
        self._actions = acts
        self._ids = {a: i for i, a in enumerate(acts)}
        self._code_of_id = [self.engine.to_code(a) for a in acts]
        self._id_of_code = {code: i for i, code in enumerate(self._code_of_id)}
        return acts

    def start(self):
        return None                  # the deal is still to come

    def is_chance(self, node) -> bool:
        return node is None

    def chance_outcomes(self, node):
        return [(0, 1.0)]

    def apply_chance(self, node, outcome: int, rng: random.Random):
        return self.node_of(self.ref.new_game(self.rules, rng.getrandbits(64)))

    def node_of(self, state):
        return TunhellNode(self.engine.from_reference(state), state)

    def state_of(self, node):
        return node.truth()

    # the game's course runs in the Cython engine (the reference's twin, checked against it by
    # the conformance battery and here move by move); what a seat knows is read off the
    # reference state the engine converts back to, once per node
    def current_player(self, node) -> int:
        return CHANCE if node is None else node.engine.current_player()

    def is_over(self, node) -> bool:
        return node is not None and bool(node.engine.is_over())

    def legal_ids(self, node) -> list[int]:
        self._table()
        return sorted(self._id_of_code[c] for c in node.engine.legal_actions())

    def apply_id(self, node, action_id: int):
        self._table()
        engine = node.engine.clone()
        engine.apply(self._code_of_id[action_id])
        return TunhellNode(engine)

    def shares(self, node) -> tuple[float, ...]:
        return tuple(node.engine.result())

    def action_id(self, action) -> int:
        self._table()
        return self._ids[action]

    def action_of(self, action_id: int):
        return self._table()[action_id]

    def view(self, node, seat: int):
        return self.ref.observe(node.truth(), seat)

    def knowledge(self, node, seat: int) -> str:
        if node is None:
            return f"seat {seat}: the deal is still to come"
        return self.ref.to_text(self.view(node, seat))

    def resample(self, node, seat: int, rng: random.Random):
        if node is None:
            return None
        return self.node_of(self.ref.sample(self.view(node, seat), rng))

    def feature_size(self) -> int:
        n = self.players
        return _KINDS * (5 + 2 * n + n * _MINES) + n * 2 + _MINES * 2 + 6 + 2 * _KINDS + n + 4

    def features(self, node, seat: int) -> np.ndarray:
        """Counts per card kind of every multiset the seat knows, sizes, phase, who moves."""
        n = self.players
        if node is None:
            return np.zeros(self.feature_size(), np.float32)
        i = self.view(node, seat)
        counts = lambda cards: np.bincount(np.asarray(cards, np.int64),  # noqa: E731
                                           minlength=_KINDS)[:_KINDS].tolist()
        out: list[float] = []
        for cards in (i.own_hand, i.center, i.dwarf_discard, i.mine_discard, i.boosts):
            out += counts(cards)
        for o in range(n):
            out += counts(i.hand_seen[o]) + counts(i.loot[o])
            for m in range(_MINES):
                out += counts(i.warriors[o][m])
        out += list(i.hidden) + [float(i.door_owner == o) for o in range(n)]
        out += list(i.mine_sizes) + [float(i.door_mine == m) for m in range(_MINES)]
        out += one_hot(6, int(i.phase))
        out += one_hot(_KINDS, i.pending if i.pending >= 0 else None)
        out += one_hot(_KINDS, i.digger if i.digger >= 0 else None)
        out += one_hot(n, i.to_move) + [i.pile_size, i.dig_left, i.passes, i.turn / 100.0]
        return np.array(out, np.float32)

    def draw(self, node) -> str:
        return "the deal is still to come" if node is None else self.ref.draw(node.truth())


BRIDGES = {"mancala": MancalaBridge, "funkel": FunkelBridge, "tunhell": TunhellBridge}


def bridge(name: str, **params) -> Bridge:
    """The bridge of a registry game with its rule parameters."""
    games.get(name)                      # an unknown name gets the registry's message
    return BRIDGES[name](**params)
