"""Funkel Munkel glue: the reference rules (``solver.games.funkel``) joined to the packed kernel
(``kernels.funkel``, ``kernels.funkel_playout``), and what users call: positions, Monte Carlo
move estimates, bots, games and matches.

Every player sees the same (DECISIONS.md, "What is seen"), so an estimate or a bot works from the
public view: a full state given to it is first reduced to its view.

Estimates. For each legal action of the seat to move, hidden arrangements are drawn uniformly
among those consistent with the view (``kernels.funkel_playout.sample_hidden``, the reference
sampler's semantics), the action is played on each and the game rolled out to the end (uniformly
random actions, or the greedy policy for every seat). The mover's win rate under that
continuation (a shared result counts its share; labelled ``win_rate_random_continuation`` or
``win_rate_greedy_continuation``, never a win probability) is reported with a Wilson 95% interval
per action; the driver is ``solver.search.estimate`` (stopping rule and reproducibility are
described there). MCTS figures are ``search_value``s; only :func:`exact_moves` (small positions,
``solver.games.funkel.exact``) gives ``win_probability``: exact, under best play.

Bots (``bot_named``): ``random``; ``greedy`` (``kernels.funkel_playout``'s one-push policy:
deliver gems to yourself, none to opponents, load your carts, leave no loaded common cart for
the next seat); ``mc[:SAMPLES[:ROLLOUT]]`` the estimator's best action with SAMPLES rounds
(default DEFAULT_BOT_SAMPLES) and random or greedy rollouts; ``mcts[:SIMULATIONS[:DEALS]]``
determinized MCTS (:func:`mcts_moves`); ``chance-mcts[:SIMULATIONS[:ROLLOUT[:C[:BIAS[:ROOT]]]]]``
MCTS over public views with chance nodes at the reveals (:func:`chance_mcts_moves`; C its UCT
exploration constant, BIAS the weight of its greedy prior below the root and ROOT at the root
(default BIAS), 0 for none; all default per player count, CHANCE_MCTS_DEFAULTS). Another bot
joins with
:func:`register_bot`.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace

import numpy as np

from kernels import _random
from kernels import funkel as kernel
from kernels import funkel_playout as playout
from solver import match as matches
from solver.errors import InputError, shown
from solver.games import funkel as reference
from solver.games.funkel import (
    COMMON,
    PASS,
    Action,
    Cart,
    Place,
    PublicView,
    Push,
    Rules,
    State,
)
from solver.games.funkel.codec import check_seat, read_position, view_of  # noqa: F401  (API)
from solver.options import (COUNT_MAX, THREADS_MAX, check_deal_seed, check_flag, check_players,
                            check_search_seed, check_seconds, check_seed, check_whole,
                            is_decimal_text, is_digits, is_whole)
from solver.search import estimate as estimator
from solver.stats import wilson_interval

DEFAULT_SAMPLES = 20_000         # rounds per estimate without a budget: under a second on one
                                 # core with random rollouts (a few seconds with greedy ones)
DEFAULT_BOT_SAMPLES = 200        # rounds per decision of the ``mc`` bot


# --- reference <-> kernel -----------------------------------------------------------------------

def packed(state: State) -> tuple:
    """The kernel's packed words of a full reference state."""
    if not isinstance(state, State):
        raise InputError(f"packed() takes a funkel State, got {type(state).__name__}")
    read_position(state)    # the reader's checks: a count beyond its field would wrap silently
    rules = state.rules
    return kernel.pack(players=rules.players, layout=rules.layout,
                       cells=[None if c is None else (c.kind, c.gem, c.seen) for c in state.cells],
                       shafts=state.shafts, hands=state.hands, supply=state.supply,
                       displays=state.displays, to_move=state.to_move, pushes=state.pushes,
                       pending=state.pending, max_pushes=rules.max_pushes,
                       hidden_shafts=rules.hidden_shafts)


def reference_of(words) -> State:
    """The reference state of packed words (a full state: no UNSEEN marks)."""
    try:
        f = kernel.unpack(words)
    except (TypeError, IndexError, ValueError, OverflowError) as error:
        raise InputError(f"reference_of() takes the words packed() returns: "
                         f"{type(error).__name__}: {error}") from None
    rules = Rules(f["players"], f["layout"], f["hidden_shafts"], f["max_pushes"])
    return State(rules, tuple(None if c is None else Cart(*c) for c in f["cells"]),
                 tuple(tuple(s) for s in f["shafts"]), tuple(f["hands"]), f["supply"],
                 tuple(tuple(d) for d in f["displays"]), f["to_move"], f["pushes"], f["pending"])


def packed_view(view: PublicView) -> tuple:
    """The packed words of a public view: every unseen gem is the mark ``playout.UNSEEN``
    (module docstring of ``kernels.funkel_playout``)."""
    if not isinstance(view, PublicView):
        raise InputError(f"packed_view() takes a funkel PublicView, got {type(view).__name__}")
    unseen = playout.UNSEEN
    cells = [None if c is None else
             (c.kind, None if not c.loaded else unseen if c.gem is None else c.gem,
              c.gem is not None)
             for c in view.cells]
    shafts = [(unseen,) * (s.height - 1) + (s.top,) if s.top is not None else (unseen,) * s.height
              for s in view.shafts]
    rules = view.rules
    return kernel.pack(players=rules.players, layout=rules.layout, cells=cells, shafts=shafts,
                       hands=view.hands, supply=view.supply, displays=view.displays,
                       to_move=view.to_move, pushes=view.pushes, pending=view.pending,
                       max_pushes=rules.max_pushes, hidden_shafts=rules.hidden_shafts)


def action_code(action: Action) -> int:
    """The kernel's int64 action of a reference action."""
    if isinstance(action, Push):
        return action.rail * kernel.KINDS + action.kind
    if isinstance(action, Place):
        return kernel.PLACE + action.display
    return kernel.PASS


def action_of(code: int) -> Action:
    """The reference action of a kernel action (0..PASS)."""
    if not is_whole(code) or not 0 <= code <= kernel.PASS:
        raise InputError(f"a funkel action code is a whole number 0..{kernel.PASS}, got {shown(code)}")
    code = int(code)
    if code == kernel.PASS:
        return PASS
    if code >= kernel.PLACE:
        return Place(code - kernel.PLACE)
    return Push(code // kernel.KINDS, code % kernel.KINDS)


def describe(action: Action) -> str:
    """An action in words (``solver.games.funkel.action_to_text``)."""
    return reference.action_to_text(None, action)


def action_to_dict(action: Action) -> dict:
    if isinstance(action, Push):
        return dict(type="push", rail=action.rail,
                    cart="common" if action.kind == COMMON else action.kind)
    if isinstance(action, Place):
        return dict(type="place", display=action.display)
    return dict(type="pass")


# --- positions ------------------------------------------------------------------------------------

def new_position(players: int = 2, layout: str = "pinwheel", seed: int | None = None,
                 view: bool = False) -> str:
    """A new game's position as JSON: the full dealt state, or (``view``) only what the players
    see of it. ``seed=None`` deals at random."""
    view = check_flag(view, "view")
    state = reference.new_game(Rules(check_players(players), layout), check_deal_seed(seed))
    return reference.to_json(reference.public_view(state) if view else state)


# --- Monte Carlo estimates ------------------------------------------------------------------------

ROLLOUTS = {"random": playout.random_rollout, "greedy": playout.greedy_rollout}


def estimate_game(rollout: str = "random") -> estimator.EstimateGame:
    """The kernel functions in the form the estimator takes them."""
    return estimator.EstimateGame(state_type=kernel.STATE, determinize=playout.sample_hidden,
                                  play=playout.step, rollout=ROLLOUTS[rollout])


# What each figure estimates (the key it carries in --json; README "Funkel Munkel" explains them).
RANDOM_CONTINUATION = "win_rate_random_continuation"   # flat MC, uniformly random rollouts
GREEDY_CONTINUATION = "win_rate_greedy_continuation"   # flat MC, greedy rollouts
SEARCH_VALUE = "search_value"                          # MCTS: mean reward of the simulations
WIN_PROBABILITY = "win_probability"                    # exact, under best play: only --exact
CONTINUATION_LABELS = {"random": RANDOM_CONTINUATION, "greedy": GREEDY_CONTINUATION}


@dataclass
class PushEstimate:
    """One action of the seat to move: ``value`` is what ``estimates`` names (for flat Monte
    Carlo the mover's win rate when every seat then plays the rollout policy; for MCTS the mean
    reward of the simulations through the action; a shared result counts its share), with the
    Wilson 95% interval and the samples (rounds, or for MCTS the visits) behind it."""

    action: Action
    value: float
    low: float
    high: float
    samples: int
    estimates: str = RANDOM_CONTINUATION

    @property
    def name(self) -> str:
        return describe(self.action)

    def to_dict(self) -> dict:
        counted = "visits" if self.estimates == SEARCH_VALUE else "samples"
        return {"action": self.name, "move": action_to_dict(self.action),
                "estimates": self.estimates, self.estimates: round(self.value, 6),
                "interval": [round(self.low, 6), round(self.high, 6)], counted: self.samples}


@dataclass
class MoveEstimates:
    """An estimate of every legal action (legal order), all of the kind ``estimates`` names.
    ``best``: the highest value (the first of equals; MCTS: the most visited). ``samples``: rounds (hidden deals), each played out once per action.
    ``stopped``: ``separated`` (best interval above all others), ``samples``, ``seconds`` or
    ``single move``."""

    position: str
    seat: int
    moves: list[PushEstimate]
    best: Action
    rollout: str
    samples: int
    seconds: float
    threads: int
    seed: int
    stopped: str
    estimates: str = RANDOM_CONTINUATION
    method: str = "mc"              # mc, mcts (determinized) or chance-mcts

    @property
    def recommended(self) -> PushEstimate:
        return next(m for m in self.moves if m.action == self.best)

    @property
    def playouts(self) -> int:
        return self.samples * len(self.moves)

    def to_dict(self) -> dict:
        return dict(game="funkel", position=self.position, seat=self.seat,
                    estimates=self.estimates, best=describe(self.best), best_move=action_to_dict(self.best),
                    moves=[m.to_dict() for m in self.moves], rollout=self.rollout,
                    interval="wilson 95%", samples=self.samples, playouts=self.playouts,
                    seconds=round(self.seconds, 6), threads=self.threads, seed=self.seed,
                    stopped=self.stopped, method=self.method)


def estimate_moves(position: str | State | PublicView, seat: int | None = None,
                   samples: int | None = None, seconds: float | None = None,
                   rollout: str = "random", threads: int = 1, seed: int = 0,
                   stop_when_separated: bool = True) -> MoveEstimates:
    """Monte Carlo estimate of each legal action of the seat to move (module docstring):
    ``samples`` rounds and/or ``seconds`` (neither: DEFAULT_SAMPLES rounds). ``seat`` names the
    asking seat; everyone sees the same, so it must be the seat to move (None: that seat).
    Reproducible for a fixed seed with a ``samples`` budget, whatever ``threads``."""
    view = view_of(position)
    if reference.is_over(view):
        raise InputError("the game is over: there is no move to estimate")
    stop_when_separated = check_flag(stop_when_separated, "stop_when_separated")
    samples, threads, seed = _check_estimate_options(view, seat, samples, seconds, rollout,
                                                     threads, seed)
    if samples is None and seconds is None:
        samples = DEFAULT_SAMPLES
    actions = reference.legal_actions(view)
    found = estimator.estimate(estimate_game(rollout), packed_view(view),
                               [action_code(a) for a in actions], view.to_move, samples=samples,
                               seconds=seconds, threads=threads, seed=seed,
                               stop_when_separated=stop_when_separated)
    label = CONTINUATION_LABELS[rollout]
    moves = [PushEstimate(action_of(m.move), m.mean, m.low, m.high, m.samples, label)
             for m in found.moves]
    return MoveEstimates(position=reference.to_json(view), seat=view.to_move, moves=moves,
                         best=action_of(found.best), rollout=rollout, samples=found.samples,
                         seconds=found.seconds, threads=threads, seed=seed,
                         stopped=found.stopped, estimates=label)


def _check_estimate_options(view: PublicView, seat, samples, seconds, rollout, threads,
                            seed, what: str = "samples") -> tuple[int | None, int, int]:
    """Checks them all; returns ``samples`` (the budget named ``what``; None: none),
    ``threads`` and ``seed`` as ints."""
    check_seat(view, seat, "estimated")
    if samples is not None:
        samples = check_whole(samples, 1, COUNT_MAX, what)
    if seconds is not None:
        check_seconds(seconds)
    if not isinstance(rollout, str) or rollout not in ROLLOUTS:
        raise InputError(f"unknown rollout {rollout!r}: choose {', '.join(ROLLOUTS)}")
    return (samples, check_whole(threads, 1, THREADS_MAX, "threads"),
            check_search_seed(seed))


def _check_weights(c, bias, root_bias) -> None:
    """The chance search's UCT constant (finite, > 0) and prior weights (finite, >= 0)."""
    for name, value, least in (("c", c, None), ("bias", bias, 0.0), ("root_bias", root_bias, 0.0)):
        if value is None:
            continue
        number = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or \
                (value <= 0 if least is None else value < least):
            raise InputError(f"{name} must be a finite number {'> 0' if least is None else '>= 0'}"
                             f", got {shown(value)}")


# --- MCTS on the true chance structure ----------------------------------------------------------

CHANCE_ROLLOUTS = {"random": "view_random_rollout", "greedy": "view_greedy_rollout"}
DEFAULT_BOT_CHANCE_SIMULATIONS = 5_000   # per decision of the ``chance-mcts`` bot
# The chance-node search's UCT constant C and greedy-prior weights (progressive bias:
# kernels.mcts option PRIOR, prior kernels.funkel_chance.greedy_prior) below and at the root,
# per player count, when the caller gives none. 3-4 players: a strong bias below the root (the
# other seats' greedy pushes get bias / (1 + visits) extra, so at a bot's budget the tree
# mostly follows them there, and the bonus fades as visits grow) and none at the root (whose
# edges are the answer). Tuned on seed 7 against greedy opponents; README, "Playing strength of
# chance-mcts", gives what each weight measured. 2 players: no prior (the table's 2p lines and
# the accuracy bench were measured without).
CHANCE_MCTS_DEFAULTS = {2: (math.sqrt(2), 0.0, 0.0), 3: (math.sqrt(2), 300.0, 0.0),
                        4: (math.sqrt(2), 300.0, 0.0)}
TIMED_TREE_MB = 64      # tree memory of a search timed under a second (the default 1 GB tree
                        # took ~0.04 s to set up: more than a 0.05 s budget)


def chance_mcts_game(players: int, rollout: str = "random"):
    """The kernel functions of ``kernels.funkel_chance`` for the generic MCTS: the tree grows
    over public views, with a chance node at every reveal of an unseen gem."""
    from kernels import funkel_chance as chance
    from solver.search import mcts
    return mcts.MctsGame(state_type=kernel.STATE, players=players, max_moves=kernel.MAX_ACTIONS,
                         legal_moves=chance.chance_legal_moves, play=chance.chance_play,
                         to_move=chance.chance_to_move, returns=playout.returns,
                         rollout=getattr(chance, CHANCE_ROLLOUTS[rollout]),
                         chance_probabilities=chance.chance_probabilities,
                         prior=chance.greedy_prior)


def chance_mcts_moves(position: str | State | PublicView, seat: int | None = None,
                      simulations: int | None = None, seconds: float | None = None,
                      rollout: str = "random", threads: int = 1, seed: int = 0,
                      c: float | None = None, bias: float | None = None,
                      root_bias: float | None = None) -> MoveEstimates:
    """MCTS over public views with chance nodes at the reveals (``kernels.funkel_chance``):
    one tree (``threads`` root-parallel trees), no determinization, so each push's
    ``search_value`` (mean reward of its simulations) tends to its expectimax / max-n value as
    simulations grow. Recommended: the most visited push. Reproducible for a fixed seed,
    ``simulations`` budget and thread count. ``c``: the UCT constant; ``bias``: the weight of
    the greedy prior below the root (progressive bias, 0: none) and ``root_bias`` at the root
    (given ``bias`` but no ``root_bias``: the same); None: CHANCE_MCTS_DEFAULTS for the player
    count."""
    from solver.search import mcts
    view = view_of(position)
    if reference.is_over(view):
        raise InputError("the game is over: there is no move to estimate")
    simulations, threads, seed = _check_estimate_options(view, seat, simulations, seconds,
                                                         rollout, threads, seed, "simulations")
    _check_weights(c, bias, root_bias)
    if simulations is None and seconds is None:
        simulations = DEFAULT_MCTS_SIMULATIONS
    game, start = chance_mcts_game(view.rules.players, rollout), time.perf_counter()
    default_c, default_bias, default_root = CHANCE_MCTS_DEFAULTS[view.rules.players]
    if root_bias is None:
        root_bias = default_root if bias is None else bias
    options = dict(c=default_c if c is None else c, bias=default_bias if bias is None else bias,
                   root_bias=root_bias)
    if simulations is None and seconds < 1:
        options["memory_mb"] = TIMED_TREE_MB     # a 1 GB tree would cost more than the search
    found = mcts.search(game, packed_view(view), simulations=simulations, seconds=seconds,
                        threads=threads, seed=seed, **options)
    moves = []
    for action in reference.legal_actions(view):
        edge = found.moves.get(action_code(action))
        n = 0 if edge is None else edge.visits
        mean = edge.mean_reward if n else 0.0
        moves.append(PushEstimate(action, mean, *wilson_interval(mean, n), n, SEARCH_VALUE))
    return MoveEstimates(position=reference.to_json(view), seat=view.to_move, moves=moves,
                         best=action_of(found.move), rollout=rollout,
                         samples=found.simulations, seconds=time.perf_counter() - start,
                         threads=threads, seed=seed,
                         stopped="seconds" if simulations is None else "simulations",
                         estimates=SEARCH_VALUE, method="chance-mcts")


def chance_mcts_bot(simulations: int = DEFAULT_BOT_CHANCE_SIMULATIONS, rollout: str = "random",
                    seconds: float | None = None, c: float | None = None,
                    bias: float | None = None, root_bias: float | None = None) -> matches.Bot:
    """A bot that plays the chance-node MCTS's most visited push; a forced action is played
    without searching. ``c``: the UCT exploration constant, ``bias`` and ``root_bias`` the
    greedy prior's weights (:func:`chance_mcts_moves`)."""
    def bot(view: PublicView, seat: int, rng: random.Random) -> Action:
        actions = reference.legal_actions(view)
        if len(actions) == 1:
            return actions[0]
        return chance_mcts_moves(view, simulations=None if seconds else simulations,
                                 seconds=seconds, rollout=rollout,
                                 seed=rng.getrandbits(31), c=c, bias=bias,
                                 root_bias=root_bias).best
    return bot


def _chance_mcts_from(args: list[str]) -> matches.Bot:
    if len(args) > 5 or (args and not is_digits(args[0])):
        raise InputError(f"chance-mcts bot: expected "
                         f"chance-mcts[:SIMULATIONS[:ROLLOUT[:C[:BIAS[:ROOT]]]]], "
                         f"got chance-mcts:{':'.join(args)}")
    rollout = args[1] if len(args) > 1 else "random"
    if not isinstance(rollout, str) or rollout not in ROLLOUTS:
        raise InputError(f"chance-mcts bot: unknown rollout {rollout!r}: choose "
                         f"{', '.join(ROLLOUTS)}")
    simulations = int(args[0]) if args else DEFAULT_BOT_CHANCE_SIMULATIONS
    if simulations < 1:
        raise InputError("chance-mcts bot: simulations must be at least 1")
    return chance_mcts_bot(simulations, rollout,
                           c=_exploration(args[2]) if len(args) > 2 else None,
                           bias=_bias(args[3]) if len(args) > 3 else None,
                           root_bias=_bias(args[4]) if len(args) > 4 else None)


def _exploration(text: str) -> float:
    """The C of a ``chance-mcts`` bot name: a positive number."""
    try:
        c = float(text) if is_decimal_text(text) else -1.0     # not "٣" nor "1_0"
    except ValueError:
        c = -1.0
    if not c > 0 or c == float("inf"):
        raise InputError(f"chance-mcts bot: C must be a positive number, got {shown(text)}")
    return c


def _bias(text: str) -> float:
    """The BIAS of a ``chance-mcts`` bot name: a number >= 0 (0: no greedy prior)."""
    try:
        bias = float(text) if is_decimal_text(text) else -1.0
    except ValueError:
        bias = -1.0
    if not bias >= 0 or bias == float("inf"):
        raise InputError(f"chance-mcts bot: BIAS must be a number >= 0, got {shown(text)}")
    return bias


# --- exact values (small positions) ---------------------------------------------------------------

@dataclass
class ExactMoves:
    """Every legal action's exact values (``solver.games.funkel.exact``): per seat the
    expected result (a shared result counts its share) and the probability of winning
    outright, when every seat then plays ``policy`` (``best``: max-n / expectimax, equal values
    to the first action in legal order; ``random``: uniformly random). ``best``: the mover's
    highest expected result, first of equals."""

    position: str
    seat: int
    policy: str
    moves: list
    best: Action
    states: int
    seconds: float
    method = "exact"

    @property
    def estimates(self) -> str:
        return WIN_PROBABILITY if self.policy == "best" else RANDOM_CONTINUATION

    def to_dict(self) -> dict:
        moves = []
        for m in self.moves:
            moves.append({"action": describe(m.action), "move": action_to_dict(m.action),
                          "estimates": self.estimates, self.estimates: round(m.win[self.seat], 12),
                          "expected_result": round(m.expected[self.seat], 12),
                          "expected_results": [round(x, 12) for x in m.expected],
                          "win_probabilities": [round(x, 12) for x in m.win]})
        return dict(game="funkel", position=self.position, seat=self.seat, exact=True,
                    policy=self.policy, estimates=self.estimates, best=describe(self.best),
                    best_move=action_to_dict(self.best), moves=moves, states=self.states,
                    seconds=round(self.seconds, 6), method=self.method)


def exact_moves(position: str | State | PublicView, seat: int | None = None,
                policy: str = "best", max_states: int | None = None) -> ExactMoves:
    """Each legal action's exact values; a position needing more than ``max_states`` table
    entries (default ``exact.DEFAULT_MAX_STATES``) raises ``exact.TooLarge`` (an InputError)
    with an estimate of its size."""
    from solver.games.funkel import exact
    view = view_of(position)
    check_seat(view, seat, "solved")
    found = exact.solve(view, policy, exact.DEFAULT_MAX_STATES if max_states is None
                        else max_states)
    return ExactMoves(position=reference.to_json(view), seat=view.to_move, policy=policy,
                      moves=found.actions, best=found.best, states=found.states,
                      seconds=found.seconds)


# --- bots -----------------------------------------------------------------------------------------

def random_bot(view: PublicView, seat: int, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(reference.legal_actions(view))


def greedy_bot(view: PublicView, seat: int, rng: random.Random) -> Action:
    """The greedy policy (``kernels.funkel_playout.greedy_action``; equal best: random)."""
    code, _ = playout.greedy_action(packed_view(view), np.uint64(rng.getrandbits(64)))
    return action_of(code)


def monte_carlo_bot(samples: int = DEFAULT_BOT_SAMPLES, rollout: str = "random",
                    seconds: float | None = None) -> matches.Bot:
    """A bot that plays the estimator's best action (``samples`` rounds, early stop on
    separation); a forced action is played without estimating."""
    def bot(view: PublicView, seat: int, rng: random.Random) -> Action:
        actions = reference.legal_actions(view)
        if len(actions) == 1:
            return actions[0]
        return estimate_moves(view, samples=samples, seconds=seconds, rollout=rollout,
                              seed=rng.getrandbits(63)).best
    return bot


def _monte_carlo_from(args: list[str]) -> matches.Bot:
    if len(args) > 2 or (args and not is_digits(args[0])):
        raise InputError(f"mc bot: expected mc[:SAMPLES[:ROLLOUT]], got mc:{':'.join(args)}")
    rollout = args[1] if len(args) > 1 else "random"
    if not isinstance(rollout, str) or rollout not in ROLLOUTS:
        raise InputError(f"mc bot: unknown rollout {rollout!r}: choose {', '.join(ROLLOUTS)}")
    samples = int(args[0]) if args else DEFAULT_BOT_SAMPLES
    if samples < 1:
        raise InputError("mc bot: samples must be at least 1")
    return monte_carlo_bot(samples, rollout)


def mcts_game(players: int, rollout: str = "random"):
    """The kernel functions in the form the generic MCTS (``solver.search.mcts``) takes them.
    Hook for the MCTS bot: the tree must grow from a full state, so a bot searches
    ``playout.sample_hidden`` deals of the view (determinized MCTS: one tree per deal, root
    statistics summed), never the true state."""
    from solver.search import mcts
    return mcts.MctsGame(state_type=kernel.STATE, players=players, max_moves=kernel.MAX_ACTIONS,
                         legal_moves=kernel.legal_actions, play=playout.step,
                         to_move=kernel.to_move, returns=playout.returns,
                         rollout=ROLLOUTS[rollout])


DEFAULT_MCTS_SIMULATIONS = 20_000   # per answer without a budget, over all deals
DEFAULT_MCTS_DEALS = 8              # hidden deals searched, one tree each (determinized MCTS)
DEALS_MAX = 1_000_000               # each deal grows a tree of its own
DEFAULT_BOT_SIMULATIONS = 2_000     # per decision of the ``mcts`` bot


def mcts_moves(position: str | State | PublicView, seat: int | None = None,
               simulations: int | None = None, seconds: float | None = None,
               deals: int = DEFAULT_MCTS_DEALS, rollout: str = "random", threads: int = 1,
               seed: int = 0) -> MoveEstimates:
    """Determinized MCTS: ``deals`` hidden arrangements drawn uniformly from the public view
    (the estimator's sampler), one UCT tree grown from each (``threads`` root-parallel trees per
    deal), root statistics summed over the deals. Each action's value (``search_value``) is
    its mean reward over the simulations through it, ``samples`` those simulations, and the interval the
    Wilson interval over them: indicative only, since tree simulations are not independent.
    The recommended action is the most visited. Reproducible for a fixed seed, ``simulations``
    budget and thread count."""
    from solver.search import mcts
    view = view_of(position)
    if reference.is_over(view):
        raise InputError("the game is over: there is no move to estimate")
    simulations, threads, seed = _check_estimate_options(view, seat, simulations, seconds,
                                                         rollout, threads, seed, "simulations")
    deals = check_whole(deals, 1, DEALS_MAX, "deals")
    if simulations is None and seconds is None:
        simulations = DEFAULT_MCTS_SIMULATIONS
    game, start = mcts_game(view.rules.players, rollout), time.perf_counter()
    visits: dict[int, int] = {}
    rewards: dict[int, float] = {}
    for deal in range(deals):
        state = playout.sample_hidden(packed_view(view), _random.stream_seed(np.uint64(seed),
                                                                            np.uint64(deal)))
        found = mcts.search(game, state, threads=threads, seed=(seed * deals + deal) % 2**64,
                            simulations=None if simulations is None else
                            max(1, simulations // deals),
                            seconds=None if seconds is None else seconds / deals)
        for code, edge in found.moves.items():
            visits[code] = visits.get(code, 0) + edge.visits
            rewards[code] = rewards.get(code, 0.0) + edge.mean_reward * edge.visits
    moves = []
    for action in reference.legal_actions(view):
        code = action_code(action)
        n = visits.get(code, 0)
        mean = rewards.get(code, 0.0) / n if n else 0.0
        moves.append(PushEstimate(action, mean, *wilson_interval(mean, n), n, SEARCH_VALUE))
    best = max(moves, key=lambda m: m.samples).action
    return MoveEstimates(position=reference.to_json(view), seat=view.to_move, moves=moves,
                         best=best, rollout=rollout, samples=sum(visits.values()),
                         seconds=time.perf_counter() - start, threads=threads, seed=seed,
                         stopped="seconds" if simulations is None else "simulations",
                         estimates=SEARCH_VALUE, method="mcts")


def mcts_bot(simulations: int = DEFAULT_BOT_SIMULATIONS, deals: int = DEFAULT_MCTS_DEALS,
             rollout: str = "random") -> matches.Bot:
    """A bot that plays determinized MCTS's most visited action; a forced action is played
    without searching."""
    def bot(view: PublicView, seat: int, rng: random.Random) -> Action:
        actions = reference.legal_actions(view)
        if len(actions) == 1:
            return actions[0]
        return mcts_moves(view, simulations=simulations, deals=deals, rollout=rollout,
                          seed=rng.getrandbits(31)).best
    return bot


def _mcts_from(args: list[str]) -> matches.Bot:
    if len(args) > 2 or not all(is_digits(a) for a in args):
        raise InputError(f"mcts bot: expected mcts[:SIMULATIONS[:DEALS]], got "
                         f"mcts:{':'.join(args)}")
    simulations = int(args[0]) if args else DEFAULT_BOT_SIMULATIONS
    deals = int(args[1]) if len(args) > 1 else DEFAULT_MCTS_DEALS
    if simulations < 1 or deals < 1:
        raise InputError("mcts bot: simulations and deals must be at least 1")
    return mcts_bot(simulations, deals)


# ``name[:options]`` -> bot; another bot joins with ``BOTS.register(name, factory)``.
BOTS = matches.BotNames("funkel", {
    "random": matches.without_options(random_bot, "random"),
    "greedy": matches.without_options(greedy_bot, "greedy"),
    "mc": _monte_carlo_from,
    "mcts": _mcts_from,
    "chance-mcts": _chance_mcts_from,
})
register_bot = BOTS.register
bot_named = BOTS.named


# --- games and matches ----------------------------------------------------------------------------

def adapter(layout: str = "pinwheel") -> matches.GameAdapter:
    """Funkel Munkel for the match runner; bots are shown the public view."""
    return matches.GameAdapter(
        name="funkel",
        new_game=lambda seed, players: reference.new_game(Rules(players, layout), seed),
        legal_moves=reference.legal_actions, apply=reference.apply, is_over=reference.is_over,
        result=reference.result, to_move=lambda state: state.to_move,
        observe=lambda state, seat: reference.public_view(state))


Frame = matches.Frame


def play_game(players: int, bots, seed: int = 0, layout: str = "pinwheel") -> list[Frame]:
    """One game from a ``seed`` deal, ``bots[seat]`` (names or callables) at each seat: every
    position as a frame (JSON, picture, the action that led to it)."""
    players, seed = check_players(players), check_seed(seed)
    seat_bots = BOTS.seated(bots, players)
    game = adapter(layout)
    start = game.new_game(seed, players)
    frames = [Frame(0, None, None, reference.to_json(start), reference.draw(start))]

    def record(state, seat, action, after):
        frames.append(Frame(len(frames), seat, describe(action), reference.to_json(after),
                            reference.draw(after)))

    rngs = [matches.bot_rng(seed, 0, seat) for seat in range(players)]
    final = matches.play_game(game, start, seat_bots, rngs, observer=record)
    frames[-1] = replace(frames[-1], result=reference.result(final))
    return frames


def match(players: int, bots, games: int, seed: int = 0,
          layout: str = "pinwheel", on_game=None) -> matches.MatchResult:
    """``games`` games between ``bots`` (one name or callable per seat), seats rotating and each
    deal replayed at every rotation (``solver.match``); win rates with 95% intervals."""
    check_players(players)
    return matches.run_match(adapter(layout), players, BOTS.seated(bots, players), games, seed,
                             on_game=on_game)


__all__ = ["packed", "reference_of", "packed_view", "action_code", "action_of", "describe",
           "read_position", "view_of", "new_position", "estimate_moves", "MoveEstimates",
           "exact_moves", "ExactMoves", "chance_mcts_moves", "chance_mcts_bot",
           "PushEstimate", "random_bot", "greedy_bot", "monte_carlo_bot", "bot_named",
           "register_bot", "play_game", "match", "Frame"]
