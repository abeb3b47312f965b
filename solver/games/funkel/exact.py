"""Funkel Munkel solved exactly on small positions: each action's win probability under best play.

Every seat sees the same, so the public view is the whole decision-relevant state and the game
is a stochastic game of perfect information; its chance events are the reveals of unseen gems
when a loaded cart leaves the mine (``kernels.funkel_exact``'s docstring has the recursion, the
tie rule and the transposition table). With 2 players this is expectimax (results sum to 1);
with 3 or 4 it is max-n: each seat maximises its own expected result, equal values going to the
first action in legal order.

Two policies are solved: ``best`` (the above) and ``random`` (every seat uniformly random after
the action: the quantity flat Monte Carlo with random rollouts estimates, computed exactly).

Size. The table holds at most ``max_states`` entries (decision nodes and reveals); a position
that needs more is reported as too large (:class:`TooLarge`, an InputError) with Knuth's estimate
of its tree size, so a big position never hangs the solver: the search stops at the budget.

:func:`reference_values` is the same recursion in plain Python on the reference rules (the
oracle the kernel is tested against); the tests hold a brute force that enumerates every deal.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from kernels import funkel_exact as k
from solver.errors import InputError
from solver.options import check_whole
from solver.games import funkel as reference
from solver.games.funkel import Cart, PublicView, State

MODES = {"best": k.BEST, "random": k.RANDOM}
DEFAULT_MAX_STATES = 1_400_000     # a 2^21-entry table (256 MB); a few seconds of search
MAX_STATES_LIMIT = 22_000_000      # a 2^25-entry table (4 GiB): beyond, a search runs for hours
SIZE_PROBES = 2_000                # random paths behind the size estimate
UNSEEN = -1                        # the reference's stand-in for a gem nobody has seen


class TooLarge(InputError):
    """The position needs more table entries than allowed; ``estimated_nodes`` is Knuth's
    estimate of its tree size (decision nodes, transpositions not merged)."""

    def __init__(self, message: str, estimated_nodes: float, max_states: int):
        super().__init__(message)
        self.estimated_nodes = estimated_nodes
        self.max_states = max_states


@dataclass
class ActionValue:
    """One action of the seat to move: per seat, the expected result (a shared result counts
    its share) and the probability of winning outright, when everyone then follows the policy."""

    action: object
    expected: tuple[float, ...]
    win: tuple[float, ...]


@dataclass
class Solution:
    """Every legal action's values (legal order); ``best``: the mover's highest expected result
    (first of equals); ``states``: table entries used; ``nodes``: decision nodes expanded."""

    seat: int
    policy: str
    actions: list[ActionValue]
    best: object
    states: int
    nodes: int
    seconds: float


def solve(view: PublicView, policy: str = "best", max_states: int = DEFAULT_MAX_STATES,
          seed: int = 0) -> Solution:
    """Each legal action's exact values under ``policy`` (``best`` or ``random``)."""
    from solver.games.funkel.api import action_code, packed_view
    if not isinstance(policy, str) or policy not in MODES:
        raise InputError(f"unknown policy {policy!r}: choose {', '.join(MODES)}")
    if reference.is_over(view):
        raise InputError("the game is over: there is no move to solve")
    max_states = check_whole(max_states, 1, MAX_STATES_LIMIT, "max_states",
                             span=f"1..{MAX_STATES_LIMIT:,} (a table of 128 bytes an entry at "
                                  "load 0.7, 4 GiB at most)")
    state = packed_view(view)
    players = view.rules.players
    keys, values, stats = _table(max_states)
    out = np.empty(k.SLOTS)
    start = time.perf_counter()
    found = []
    for action in reference.legal_actions(view):
        k.value(state, np.int64(action_code(action)), np.int64(MODES[policy]), keys, values,
                stats, out)
        if stats[k.ABORTED]:
            raise _too_large(view, max_states, seed)
        found.append(ActionValue(action, tuple(out[:players]),
                                 tuple(out[k.WIN:k.WIN + players])))
    seat = view.to_move
    best = max(found, key=lambda a: a.expected[seat]).action    # max keeps the first of equals
    return Solution(seat, policy, found, best, int(stats[k.STORED]), int(stats[k.NODES]),
                    time.perf_counter() - start)


def _table(max_states: int):
    capacity = 1 << max(10, int(np.ceil(np.log2(max_states / 0.7))))   # load factor <= 0.7
    stats = np.zeros(4, np.int64)
    stats[k.BUDGET] = max_states
    return np.zeros((capacity, 8), np.uint64), np.zeros((capacity, k.SLOTS)), stats


def estimate_tree_size(view: PublicView, probes: int = SIZE_PROBES, seed: int = 0) -> float:
    """Knuth's unbiased estimate of the number of decision nodes in the game tree below
    ``view`` (random paths; a product of branching factors, reveals included)."""
    from solver.games.funkel.api import packed_view
    state = packed_view(view)
    depth = 2 * (view.rules.max_pushes - view.pushes) + 2
    rng = np.uint64(seed * 0x9E3779B97F4A7C15 % (1 << 64))
    total = 0.0
    for probe in range(probes):
        total += k.tree_size_probe(state, np.uint64((int(rng) + probe * 7919) % (1 << 64)),
                                   np.int64(depth))
    return total / probes


def _too_large(view: PublicView, max_states: int, seed: int) -> TooLarge:
    size = estimate_tree_size(view, seed=seed)
    return TooLarge(f"position too large to solve exactly: more than {max_states:,} positions "
                    f"and reveals (the limit); its game tree has about {size:.2g} nodes "
                    "(Knuth's estimate, transpositions not merged)", size, max_states)


# --- the same recursion in plain Python (the kernel's oracle) -------------------------------------

def reference_values(view: PublicView, policy: str = "best") -> list[ActionValue]:
    """Each legal action's values, by the kernel's recursion written on the reference rules: a
    state whose unseen gems are UNSEEN, the revealed gem drawn from the unseen pool."""
    memo: dict = {}
    state = _with_unseen(view)
    players = view.rules.players
    out = []
    for action in reference.legal_actions(state):
        values = _action_value(state, action, policy, memo)
        out.append(ActionValue(action, tuple(values[:players]), tuple(values[players:])))
    return out


def _with_unseen(view: PublicView) -> State:
    cells = tuple(None if c is None else
                  Cart(c.kind, None if not c.loaded else UNSEEN if c.gem is None else c.gem,
                       c.gem is not None)
                  for c in view.cells)
    shafts = tuple((UNSEEN,) * (s.height - 1) + (s.top,) if s.top is not None
                   else (UNSEEN,) * s.height for s in view.shafts)
    return State(view.rules, cells, shafts, view.hands, view.supply, view.displays,
                 view.to_move, view.pushes, view.pending)


def _unseen_pool(state: State) -> list[int]:
    """Per gem colour, how many nobody has seen (the state's known gems taken off the game's)."""
    pool = list(reference.GEM_COUNTS)
    known = [g for d in state.displays for g, n in enumerate(d) for _ in range(n)]
    known += [c.gem for c in state.cells if c is not None and c.gem not in (None, UNSEEN)]
    known += [g for s in state.shafts for g in s if g != UNSEEN]
    if state.pending is not None:
        known.append(state.pending)
    for g in known:
        pool[g] -= 1
    return pool


def _revealing_cell(state: State, action) -> int | None:
    """The cell of the cart an action pushes out while its gem is unseen."""
    if not isinstance(action, reference.Push):
        return None
    rail = state.rules.board.rails[action.rail]
    if any(state.cells[c] is None for c in rail):
        return None
    return rail[-1] if state.cells[rail[-1]].gem == UNSEEN else None


def _action_value(state: State, action, policy: str, memo: dict) -> list[float]:
    cell = _revealing_cell(state, action)
    if cell is None:
        return _node_value(reference.apply(state, action), policy, memo)
    pool = _unseen_pool(state)
    total = sum(pool)
    values = [0.0] * (2 * state.rules.players)
    for gem, count in enumerate(pool):
        if count:
            cells = list(state.cells)
            cells[cell] = Cart(cells[cell].kind, gem, True)
            shown = State(state.rules, tuple(cells), state.shafts, state.hands, state.supply,
                          state.displays, state.to_move, state.pushes, state.pending)
            child = _node_value(reference.apply(shown, action), policy, memo)
            values = [v + count / total * c for v, c in zip(values, child)]
    return values


def _node_value(state: State, policy: str, memo: dict) -> list[float]:
    """Per seat the expected result, then per seat the outright-win probability."""
    if reference.is_over(state):
        outcome = reference.result(state)
        return list(outcome) + [1.0 if r == 1.0 else 0.0 for r in outcome]
    if state in memo:
        return memo[state]
    mover = state.to_move
    children = [_action_value(state, a, policy, memo) for a in reference.legal_actions(state)]
    if policy == "random":
        values = [0.0] * len(children[0])
        for child in children:             # the kernel's order of additions
            values = [v + c / len(children) for v, c in zip(values, child)]
    else:
        values = children[0]
        for child in children[1:]:
            if child[mover] > values[mover]:
                values = child
    memo[state] = values
    return values


# --- small positions from random games (tests and benches) ---------------------------------------

def late_positions(count: int, players: int = 2, horizon: int = 3, seed: int = 0,
                   layout: str = "pinwheel") -> list[PublicView]:
    """``count`` public views from uniformly random games (game ``seed + i``): a position drawn
    among the last 12 before the game ended (no display choice pending), with the push limit
    (the ``max_pushes`` rule) set ``horizon`` pushes ahead, so the exact solver is quick there."""
    import random
    from dataclasses import replace
    out = []
    for i in range(count):
        rng = random.Random(seed + i)
        state = reference.new_game(reference.Rules(players, layout), seed + i)
        history = []
        while not reference.is_over(state):
            if state.pending is None:
                history.append(state)
            state = reference.apply(state, rng.choice(reference.legal_actions(state)))
        state = history[-rng.randint(1, min(12, len(history)))]
        rules = replace(state.rules, max_pushes=state.pushes + horizon)
        out.append(reference.public_view(replace(state, rules=rules)))
    return out
