"""Tunhell: what users call. Positions (one player's view as JSON), the best action of a
position with win probabilities and margins (ISMCTS or determinized Monte Carlo over the Cython
engine), bots, whole games told turn by turn, and matches with win rates.

A position is what one seat knows (``solver.games.tunhell.InfoSet``, JSON schema in
``solver.games.tunhell.to_json``). Searches never see more: they start from a state drawn
uniformly among those consistent with it (``kernels.tunhell_sample``) and draw a fresh one for
every round or iteration. A full ``State`` given instead is first reduced to one seat's view.

Estimates (``solver.search.ismcts`` explains both methods, their intervals, budgets, stopping
and reproducibility): for each legal action of the seat to move, a value (the seat's mean result
share; a shared win counts its share) and expected score margin (its points minus the best other
seat's at the end), each with a 95% interval. What the value estimates is its label
(:data:`ESTIMATES`): ``win_rate_random_continuation`` (PIMC), ``win_rate_greedy_continuation``
(PIMC with the heuristic rollout policy, ``solver.games.tunhell.rollout``), ``search_value``
(ISMCTS, either rollouts); never a win probability under best play, which hidden hands leave
undefined. ``iterations`` counts playouts for every method.

Bots (``bot_named``): ``random``; ``greedy`` (``solver.games.tunhell.greedy``: recruit strong cards,
dig when safe, fight cheaply); ``pimc[:ITERATIONS]``, ``ismcts[:ITERATIONS]`` and their
heuristic-rollout forms ``pimc-greedy``, ``ismcts-greedy`` (the search's recommended action;
default DEFAULT_BOT_ITERATIONS; a forced action is played without search).
A bot is shown only its seat's information set.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from kernels.tunhell_sample import StateSampler
from solver import match as matches
from solver.search import ismcts as search
from solver.errors import InputError, shown
from solver.games import tunhell as reference
from solver.games.tunhell import Action, InfoSet, Move, Phase, Rules, State
from solver.games.tunhell.cards import name
from solver.games.tunhell.engine import from_reference, to_action
from solver.games.tunhell.greedy import greedy_action
from solver.options import (COUNT_MAX, THREADS_MAX, check_deal_seed, check_flag, check_players,
                            check_search_seed, check_seconds, check_seed, check_whole,
                            is_digits)

DEFAULT_ITERATIONS = 20_000      # playouts per estimate without a budget: about half a second
#                                  on one core (2 players; 4 players: about 0.7 s)
DEFAULT_BOT_ITERATIONS = 5_000   # playouts per decision of the pimc and ismcts bots: with 1000
#                                  they only drew level with greedy in 2-player test matches
ROLLOUT_EPSILON = 0.1            # the heuristic rollouts' share of uniformly random actions
# method -> (driver, rollouts): the "-greedy" methods roll out with the engine's heuristic policy
# (greedy's habits on the deal being played, a random action with probability ROLLOUT_EPSILON)
SEARCHES = {"ismcts": ("ismcts", search.RANDOM_ROLLOUTS), "pimc": ("pimc", search.RANDOM_ROLLOUTS),
            "ismcts-greedy": ("ismcts", ROLLOUT_EPSILON), "pimc-greedy": ("pimc", ROLLOUT_EPSILON)}
METHODS = tuple(SEARCHES)


def run_search(method: str, sampler, codes, seat, **budget) -> search.Search:
    """The driver of ``method`` with its rollouts."""
    driver, epsilon = SEARCHES[method]
    return getattr(search, driver)(sampler, codes, seat, epsilon=epsilon, **budget)


# --- positions -----------------------------------------------------------------------------------

def read_position(position: str | InfoSet | State, seat: int | None = None) -> InfoSet:
    """One seat's information set from JSON text, an InfoSet, or a full State (reduced to
    ``seat``'s view; None: the seat to move). ``seat`` must agree with a view's own seat."""
    if isinstance(position, State):     # hand-built: the rules' invariants, then the view's
        if not isinstance(position.phase, Phase):
            raise InputError(f"a tunhell State's phase is a Phase, got {shown(position.phase)}")
        try:
            reference.check_state(position)
            position = reference.information_set(position, position.to_move if seat is None
                                                 else seat)
        except AssertionError as error:
            raise InputError(f"an impossible tunhell State: {error}") from None
        except (AttributeError, IndexError, KeyError, OverflowError, TypeError,
                ValueError) as error:
            raise InputError(f"a malformed tunhell State: {type(error).__name__}: {error}") \
                from None
        reference.check_info(position)
        return position
    if isinstance(position, str):
        position = reference.from_json(position)
    if not isinstance(position, InfoSet):
        raise InputError(f"a tunhell position is JSON text, an InfoSet or a State, got "
                         f"{type(position).__name__}")
    # An InfoSet built in Python is checked for consistency and for a mover who can act (the
    # engine has nothing to search otherwise); hand-built tables need not be reachable.
    from solver.games.tunhell.infoset import _check_mover_can_act
    reference.check_info(position)
    _check_mover_can_act(position)
    if seat is not None and seat != position.seat:
        raise InputError(f"the position is seat {position.seat}'s view, not seat {shown(seat)}'s")
    return position


def new_position(players: int = 2, intro: bool = False, seed: int | None = None,
                 seat: int = 0, dig_may_stop: bool = False) -> str:
    """A new game's position as JSON, seen by ``seat`` (seat 0 moves first). ``seed=None``
    deals at random. ``dig_may_stop``: the rule option "the Digger may stop after any card"."""
    players, seed = check_players(players), check_deal_seed(seed)
    seat = check_whole(seat, 0, players - 1, "seat")
    rules = Rules(players, intro, dig_may_stop)
    dealt = reference.new_game(rules, random.SystemRandom().getrandbits(63) if seed is None
                               else seed)
    return reference.to_json(reference.information_set(dealt, seat))


# --- best action ---------------------------------------------------------------------------------

# What each figure estimates (the key its value carries in --json; README "Tunhell" explains):
RANDOM_CONTINUATION = "win_rate_random_continuation"   # PIMC, uniformly random rollouts
GREEDY_CONTINUATION = "win_rate_greedy_continuation"   # PIMC, the heuristic rollout policy
SEARCH_VALUE = "search_value"                          # ISMCTS: mean result of the visits
ESTIMATES = {"pimc": RANDOM_CONTINUATION, "pimc-greedy": GREEDY_CONTINUATION,
             "ismcts": SEARCH_VALUE, "ismcts-greedy": SEARCH_VALUE}


@dataclass
class ActionEstimate:
    """One legal action: ``value``, the seat's mean result share (1 a win, 1/k a shared win)
    over the samples behind it, and its score margin, with 95% intervals. What ``value``
    estimates is ``estimates`` (never a win probability under best play: see ESTIMATES).
    ``samples``: PIMC rounds, or ISMCTS visits of the root child. Without samples the means are
    None; with one the margin interval is None."""

    action: Action
    value: float | None
    win_interval: tuple[float, float]
    margin: float | None
    margin_interval: tuple[float, float] | None
    samples: int
    estimates: str = SEARCH_VALUE

    @property
    def name(self) -> str:
        return str(self.action)

    def to_dict(self) -> dict:
        counted = "visits" if self.estimates == SEARCH_VALUE else "samples"
        return {"action": self.name, "estimates": self.estimates,
                self.estimates: _rounded(self.value),
                "win_interval": [_rounded(x) for x in self.win_interval],
                "margin": _rounded(self.margin),
                "margin_interval": None if self.margin_interval is None else
                [_rounded(x) for x in self.margin_interval], counted: self.samples}


@dataclass
class BestAction:
    """The estimate of every legal action (legal order) and the recommended one. ``stopped``:
    ``separated``, ``iterations``, ``seconds`` or ``single move``."""

    position: str
    seat: int
    method: str
    moves: list[ActionEstimate]
    best: Action
    iterations: int
    seconds: float
    threads: int
    seed: int
    stopped: str
    nodes: int = 0

    @property
    def recommended(self) -> ActionEstimate:
        return next(m for m in self.moves if m.action == self.best)

    @property
    def best_name(self) -> str:
        return str(self.best)

    def to_dict(self) -> dict:
        return dict(game="tunhell", position=self.position, seat=self.seat, method=self.method,
                    estimates=ESTIMATES[self.method],
                    best=self.best_name, moves=[m.to_dict() for m in self.moves],
                    win_interval="wilson 95%", margin_interval="normal 95%",
                    iterations=self.iterations, nodes=self.nodes,
                    seconds=round(self.seconds, 6), threads=self.threads, seed=self.seed,
                    stopped=self.stopped)


def best_action(position: str | InfoSet | State, seat: int | None = None,
                method: str = "ismcts", seconds: float | None = None,
                iterations: int | None = None, threads: int = 1, seed: int = 0,
                stop_when_separated: bool = True) -> BestAction:
    """Estimate every legal action of the seat to move, who must be the position's seat:
    ``iterations`` playouts and/or ``seconds`` (neither: DEFAULT_ITERATIONS), ``threads``
    threads. Reproducible for a fixed seed with an iterations budget (``solver.search.ismcts``).
    Raises InputError for a bad position or option."""
    info = read_position(position, seat)
    stop_when_separated = check_flag(stop_when_separated, "stop_when_separated")
    iterations, threads, seed = _check_search_options(info, method, seconds, iterations,
                                                      threads, seed)
    if seconds is None and iterations is None:
        iterations = DEFAULT_ITERATIONS
    sampler, codes = prepare_search(info, seed)
    found = run_search(method, sampler, codes, info.seat, iterations=iterations, seconds=seconds,
                threads=threads, seed=seed, stop_when_separated=stop_when_separated)
    moves = [_estimate(to_action(code), found.totals, i, ESTIMATES[method])
             for i, code in enumerate(codes)]
    return BestAction(position=reference.to_json(info), seat=info.seat, method=method,
                      moves=moves, best=moves[found.best].action, iterations=found.iterations,
                      seconds=found.seconds, threads=threads, seed=seed, stopped=found.stopped,
                      nodes=found.nodes)


def prepare_search(info: InfoSet, seed: int = 0) -> tuple[StateSampler, list[int]]:
    """The C determinizer of ``info`` and the engine codes of its seat's legal actions (the
    reference's order). Any consistent state will do as the sampler's base: one is drawn."""
    if not isinstance(info, InfoSet):
        raise InputError(f"prepare_search() takes a tunhell InfoSet, got {type(info).__name__}")
    seed = check_search_seed(seed)
    sampled = reference.sample_state(info, random.Random(seed))
    try:
        anchor = from_reference(sampled)
    except InputError:
        raise
    except ValueError as error:     # a count the rules allow but the packed engine cannot hold
        raise InputError(f"a tunhell position the engine cannot hold: {error}") from None
    return StateSampler(anchor, info.seat), anchor.legal_actions()


def _estimate(action: Action, totals: search.Totals, i: int, estimates: str) -> ActionEstimate:
    n = int(totals.samples[i])
    return ActionEstimate(action=action, estimates=estimates,
                          value=float(totals.share[i] / n) if n else None,
                          win_interval=search.win_interval(totals, i),
                          margin=float(totals.margin[i] / n) if n else None,
                          margin_interval=search.margin_interval(totals, i), samples=n)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _check_search_options(info: InfoSet, method, seconds, iterations, threads,
                          seed) -> tuple[int | None, int, int]:
    """Checks them all; returns ``iterations`` (or None), ``threads`` and ``seed`` as ints."""
    if reference.is_over(info):
        raise InputError("the game is over: there is no action to estimate")
    if info.to_move != info.seat:
        raise InputError(f"seat {info.to_move} is to move, but the position is seat "
                         f"{info.seat}'s view: only the mover's actions are estimated")
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}: choose {', '.join(METHODS)}")
    return (_check_budget(seconds, iterations),
            check_whole(threads, 1, THREADS_MAX, "threads"),
            check_search_seed(seed))


def _check_budget(seconds, iterations) -> int | None:
    """Checks both; returns ``iterations`` as an int (or None)."""
    if seconds is not None:
        check_seconds(seconds)
    return None if iterations is None else check_whole(iterations, 1, COUNT_MAX, "iterations")


# --- bots ----------------------------------------------------------------------------------------

def legal_actions_of(info: InfoSet, rng: random.Random) -> list[Action]:
    """The seat's legal actions (the same in every state consistent with its view)."""
    return reference.legal_actions(reference.sample_state(info, rng))


def random_bot(info: InfoSet, seat: int, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(legal_actions_of(info, rng))


def greedy_bot(info: InfoSet, seat: int, rng: random.Random) -> Action:
    """The hand-written policy of ``solver.games.tunhell.greedy``."""
    return greedy_action(info, legal_actions_of(info, rng), rng)


def search_bot(method: str, iterations: int | None = DEFAULT_BOT_ITERATIONS,
               seconds: float | None = None) -> matches.Bot:
    """A bot playing :func:`best_action`'s recommendation (early stop on separation); a forced
    action is played without searching."""
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}: choose {', '.join(METHODS)}")
    iterations = _check_budget(seconds, iterations)
    if iterations is None and seconds is None:
        raise InputError("a search bot needs iterations or seconds")

    def bot(info: InfoSet, seat: int, rng: random.Random) -> Action:
        seed = rng.getrandbits(63)
        sampler, codes = prepare_search(info, seed)
        if len(codes) == 1:
            return to_action(codes[0])
        found = run_search(method, sampler, codes, info.seat, iterations=iterations,
                           seconds=seconds, seed=seed)
        return to_action(codes[found.best])
    bot.__name__ = f"{method}:{iterations}"
    return bot


def _search_from(method: str) -> Callable[[list[str]], matches.Bot]:
    def factory(args: list[str]) -> matches.Bot:
        if len(args) > 1 or (args and not is_digits(args[0])) or (args and int(args[0]) < 1):
            raise InputError(f"{method} bot: expected {method}[:ITERATIONS], got "
                             f"{':'.join([method] + args)}")
        return search_bot(method, int(args[0]) if args else DEFAULT_BOT_ITERATIONS)
    return factory


BOTS = matches.BotNames("tunhell", {
    "random": matches.without_options(random_bot, "random"),
    "greedy": matches.without_options(greedy_bot, "greedy"),
    "pimc": _search_from("pimc"),
    "ismcts": _search_from("ismcts"),
    "pimc-greedy": _search_from("pimc-greedy"),
    "ismcts-greedy": _search_from("ismcts-greedy"),
})
bot_named = BOTS.named


# --- games and matches ---------------------------------------------------------------------------

def adapter(intro: bool = False, dig_may_stop: bool = False) -> matches.GameAdapter:
    """Tunhell for the match runner: reference states, bots shown their seat's view."""
    intro, dig_may_stop = check_flag(intro, "intro"), check_flag(dig_may_stop, "dig_may_stop")
    return matches.GameAdapter(
        name=("tunhell-intro" if intro else "tunhell") + ("-may-stop" if dig_may_stop else ""),
        new_game=lambda seed, players: reference.new_game(Rules(players, intro, dig_may_stop),
                                                          seed),
        legal_moves=reference.legal_actions,
        apply=lambda state, action: reference.apply(state, action, check=False),
        is_over=reference.is_over, result=reference.result, to_move=reference.current_player,
        observe=reference.information_set)


@dataclass
class TurnRecord:
    """One decision of a played game and what followed from it: the cards drawn (in order; the
    last one ``put_back`` face down when the dig failed on it), the cards the mover's loot
    gained, Finds that joined hands, the scores after it, and the result once over."""

    step: int
    turn: int
    seat: int
    action: str
    drawn: list[str] = field(default_factory=list)
    put_back: str | None = None
    loot: list[str] = field(default_factory=list)
    finds: dict[int, list[str]] = field(default_factory=dict)
    scores: tuple[int, ...] = ()
    result: tuple[float, ...] | None = None

    def __str__(self) -> str:
        parts = [f"turn {self.turn} seat {self.seat}: {self.action}"]
        if self.drawn:
            parts.append("drew " + ", ".join(self.drawn))
        if self.put_back:
            parts.append(f"{self.put_back} goes back face down")
        if self.loot:
            parts.append("loot + " + ", ".join(self.loot))
        for seat, cards in self.finds.items():
            parts.append(f"seat {seat} finds " + ", ".join(cards))
        parts.append("scores " + "-".join(map(str, self.scores)))
        if self.result is not None:
            parts.append("result " + " ".join(f"{r:g}" for r in self.result))
        return "; ".join(parts)

    def to_dict(self) -> dict:
        return dict(step=self.step, turn=self.turn, seat=self.seat, action=self.action,
                    drawn=self.drawn, put_back=self.put_back, loot=self.loot,
                    finds={str(s): c for s, c in self.finds.items()}, scores=list(self.scores),
                    result=None if self.result is None else list(self.result))


def play_game(players: int, bots, intro: bool = False, seed: int = 0,
              dig_may_stop: bool = False) -> list[TurnRecord]:
    """One game from a ``seed`` deal, ``bots[seat]`` (names or callables) at each seat: every
    decision with the cards it drew, the fights, the loot and the scores."""
    players, seed = check_players(players), check_seed(seed)
    seat_bots = BOTS.seated(bots, players)
    game = adapter(intro, dig_may_stop)
    records: list[TurnRecord] = []

    def record(state, seat, action, after):
        records.append(describe_step(len(records), state, action, after))

    rngs = [matches.bot_rng(seed, 0, seat) for seat in range(players)]
    matches.play_game(game, game.new_game(seed, players), seat_bots, rngs, observer=record)
    return records


def describe_step(step: int, before: State, action: Action, after: State) -> TurnRecord:
    seat = before.to_move
    drawn, put_back = cards_drawn(before, action, after)
    loot = Counter(after.loot[seat]) - Counter(before.loot[seat])
    recruited = Counter([action.card] if action.move == Move.RECRUIT else [])
    finds = {s: _names(Counter(after.hand_seen[s]) - Counter(before.hand_seen[s]) - recruited)
             for s in range(before.rules.players)}
    return TurnRecord(step=step, turn=before.turn, seat=seat, action=str(action),
                      drawn=[name(c) for c in drawn],
                      put_back=None if put_back is None else name(put_back),
                      loot=_names(loot), finds={s: c for s, c in finds.items() if c},
                      scores=reference.scores(after),
                      result=reference.result(after) if reference.is_over(after) else None)


def _names(cards: Counter) -> list[str]:
    return [name(k) for k in sorted(cards.elements())]


def cards_drawn(before: State, action: Action, after: State) -> tuple[list[int], int | None]:
    """The cards an action drew, in order, and the one put back face down (or None). Piles only
    lose cards from the top and a card put back is the last one drawn, back in its place, so a
    pile's lost top is what was drawn. A dig stops before its draws are spent only at a
    decision, at the end of the game, on an empty pile, or on a card put back: so a dig whose
    turn ended with draws left on a pile still holding cards put its last card back."""
    dug, draws = _dig_of(before, action)
    drawn, put_back = [], None
    for m in range(reference.MINES):
        old, new = before.mines[m], after.mines[m]
        lost = len(old) - len(new)
        if m == dug and new and after.phase == Phase.TURN and lost < draws:
            put_back = new[-1]
            lost += 1
        drawn += old[len(old) - lost:][::-1]
    return drawn, put_back


def _dig_of(before: State, action: Action) -> tuple[int | None, int]:
    """The mine an action digs and the draws it may make there (None, 0: no dig)."""
    if action.move == Move.DIGGER:
        return action.mine, reference.dig_capacity(action.card, action.cards)
    if action.move == Move.DOOR:
        return action.mine, before.dig_left
    if action.move in (Move.HEART, Move.DIG_ON) or (action.move == Move.FIGHT and not action.use_digger):
        return before.dig_mine, before.dig_left
    return None, 0


def match(players: int, bots, games: int, intro: bool = False, seed: int = 0,
          on_game=None, dig_may_stop: bool = False) -> matches.MatchResult:
    """``games`` games between ``bots`` (one name or callable per seat), seats rotating and each
    deal replayed at every rotation (``solver.match``); win rates with 95% intervals."""
    check_players(players)
    return matches.run_match(adapter(intro, dig_may_stop), players, BOTS.seated(bots, players), games, seed,
                             on_game=on_game)


__all__ = ["read_position", "new_position", "best_action", "BestAction", "ActionEstimate",
           "prepare_search", "random_bot", "greedy_bot", "search_bot", "bot_named",
           "BOTS", "adapter", "play_game", "TurnRecord", "match", "METHODS",
           "DEFAULT_ITERATIONS", "DEFAULT_BOT_ITERATIONS"]
