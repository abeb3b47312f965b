"""Matches between bots, for any game: seats rotate, win rates come with 95% intervals.

A game joins through a :class:`GameAdapter` (plain functions on its reference states) and a bot
is a callable ``bot(observation, seat, rng) -> action``, where ``observation`` is what the
adapter's ``observe`` lets that seat see (the whole state in a game without hidden information)
and ``rng`` a ``random.Random`` of its own for the game.

Fairness. Game g seats entrant e at seat ``(e + g) % players`` (:func:`seating`), and each block
of ``players`` consecutive games replays the same deal (the same ``new_game`` seed), so over a
block every entrant plays every seat of the same deal once: luck of the deal and the seat order
cancel. Matches with a multiple of ``players`` games are balanced.

Scoring: an entrant gains what the game's result gives its seat: 1 a win, 0 a loss, 1/k a result
shared by k seats (a 2-player draw counts a half). Its win rate is the mean over its games, with a
Wilson 95% interval (``solver.stats``).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Sequence

from solver.errors import GameAbandoned, InputError, shown
from solver.options import COUNT_MAX, check_seed, check_whole
from solver.stats import wilson_interval

Bot = Callable[[Any, int, random.Random], Any]


def _whole_state(state, seat):
    return state


class GameAdapter(NamedTuple):
    """A game's reference functions, as the runner calls them."""

    name: str
    new_game: Callable[[int, int], Any]          # (seed, players) -> the starting state
    legal_moves: Callable[[Any], list]
    apply: Callable[[Any, Any], Any]             # (state, move) -> the next state
    is_over: Callable[[Any], bool]
    result: Callable[[Any], Sequence[float]]     # per seat, in [0, 1], summing to 1
    to_move: Callable[[Any], int]
    observe: Callable[[Any, int], Any] = _whole_state   # what a seat's bot is shown


@dataclass
class EntrantScore:
    """One entrant's games, points (wins + shared shares), outcomes by kind, and the sum of its
    final margins where the game has one (Mancala's store difference)."""

    name: str
    games: int = 0
    points: float = 0.0
    wins: int = 0
    shared: int = 0
    losses: int = 0
    seat_games: list[int] = field(default_factory=list)   # games played at each seat
    margin_total: float | None = None

    @property
    def mean_margin(self) -> float | None:
        return None if self.margin_total is None or not self.games else \
            self.margin_total / self.games

    @property
    def win_rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.win_rate, self.games)

    def record(self, seat: int, reward: float) -> None:
        self.games += 1
        self.points += reward
        self.seat_games[seat] += 1
        if reward == 1.0:
            self.wins += 1
        elif reward == 0.0:
            self.losses += 1
        else:
            self.shared += 1

    def to_dict(self) -> dict:
        low, high = self.interval
        out = dict(bot=self.name, games=self.games, points=round(self.points, 6),
                   wins=self.wins, shared=self.shared, losses=self.losses,
                   win_rate=round(self.win_rate, 6), interval=[round(low, 6), round(high, 6)],
                   seat_games=list(self.seat_games))
        if self.mean_margin is not None:
            out["mean_margin"] = round(self.mean_margin, 6)
        return out


@dataclass
class MatchResult:
    """A finished match. ``entrants`` in the order the bots were given."""

    game: str
    players: int
    games: int
    seed: int
    entrants: list[EntrantScore]
    seconds: float

    def to_dict(self) -> dict:
        return dict(game=self.game, players=self.players, games=self.games, seed=self.seed,
                    seconds=round(self.seconds, 3), interval="wilson 95%",
                    entrants=[e.to_dict() for e in self.entrants])

    def lines(self) -> list[str]:
        """A table: each bot's win rate (shared results as fractions) with its 95% interval."""
        width = max(len(e.name) for e in self.entrants)
        out = [f"{self.game}, {self.players} players, {self.games} games, seed {self.seed}"]
        for e in self.entrants:
            low, high = e.interval
            margin = "" if e.mean_margin is None else f", mean margin {e.mean_margin:+.2f}"
            out.append(f"  {e.name:<{width}}  win rate {e.win_rate:6.1%}  95% [{low:6.1%}, "
                       f"{high:6.1%}]  ({e.wins} won, {e.shared} shared, {e.losses} lost"
                       f"{margin})")
        return out


BotFactory = Callable[[list[str]], Bot]

# Bots named after a search: a game without the capability refuses them with the reason.
ALGORITHMS = {"alphabeta": ("alphabeta", "alpha-beta"), "exact": ("exact", "an exact solver"),
              "mcts": ("mcts", "MCTS"), "ismcts": ("ismcts", "ISMCTS"), "pimc": ("pimc", "PIMC")}


class BotNames:
    """One game's bots by name: ``name[:option[:option]]`` -> ``factory(options)`` -> bot."""

    def __init__(self, game: str, factories: dict[str, BotFactory]):
        self.game = game
        self.factories = dict(factories)

    def register(self, name: str, factory: BotFactory) -> None:
        self.factories[name] = factory

    def named(self, name: str) -> Bot:
        if not isinstance(name, str):
            raise InputError(f"a {self.game} bot is named by text such as 'random', got {shown(name)}")
        kind, *options = name.split(":")
        if kind not in self.factories:
            if kind in ALGORITHMS:
                from solver.games import get
                get(self.game).require(*ALGORITHMS[kind])
            raise unknown_bot(self.game, name, self.factories)
        return self.factories[kind](options)

    def seated(self, bots, players: int) -> list[tuple[str, Bot]]:
        """(name, bot) per seat from names or callables; one bot per seat."""
        check_bot_count(players, bots)
        for at, bot in enumerate(bots):
            if not isinstance(bot, str) and not callable(bot):
                raise InputError(f"the bot at seat {at} is a name or a callable, got "
                                 f"{type(bot).__name__}")
        return [(b, self.named(b)) if isinstance(b, str) else (getattr(b, "__name__", "bot"), b)
                for b in bots]


def unknown_bot(game: str, name: str, kinds) -> InputError:
    return InputError(f"unknown {game} bot {name!r}: choose {', '.join(kinds)}")


def check_bot_kinds(game: str, bots, kinds) -> None:
    """Refuse a bot name whose kind is not among ``kinds`` before the module of the bots (and
    its kernels) loads, as :meth:`BotNames.named` would; an algorithm the game lacks is left to
    it (its message says so)."""
    for name in bots:
        if isinstance(name, str) and name.split(":")[0] not in (*kinds, *ALGORITHMS):
            raise unknown_bot(game, name, kinds)


def check_bot_count(players: int, bots) -> None:
    """One bot per seat."""
    if not isinstance(bots, (list, tuple)):
        raise InputError(f"bots are a list, one per seat, got {type(bots).__name__}")
    if len(bots) != players:
        raise InputError(f"{players} players need {players} bots, got {len(bots)}")


def without_options(bot: Bot, name: str) -> BotFactory:
    """The factory of a bot that takes no options."""
    def factory(options: list[str]) -> Bot:
        if options:
            raise InputError(f"bot {name!r} takes no options, got {name}:{':'.join(options)}")
        return bot
    return factory


def seating(game_index: int, players: int) -> list[int]:
    """The entrant at each seat in game ``game_index``: seat s is played by entrant
    ``(s - game_index) % players``, so entrant e sits at ``(e + game_index) % players``."""
    return [(seat - game_index) % players for seat in range(players)]


def deal_seed(seed: int, game_index: int, players: int) -> int:
    """The ``new_game`` seed of a game: the same for each block of ``players`` games."""
    return random.Random(f"deal/{seed}/{game_index // players}").getrandbits(63)


def bot_rng(seed: int, game_index: int, entrant: int) -> random.Random:
    return random.Random(f"bot/{seed}/{game_index}/{entrant}")


def play_game(adapter: GameAdapter, state, seat_bots: Sequence[tuple[str, Bot]],
              rngs: Sequence[random.Random],
              observer: Callable[[Any, int, Any, Any], None] | None = None):
    """Play ``state`` to the end with ``seat_bots[seat]`` choosing at each seat; return the final
    state. ``observer(state, seat, move, next_state)`` sees every move."""
    while not adapter.is_over(state):
        seat = adapter.to_move(state)
        name, bot = seat_bots[seat]
        move = bot(adapter.observe(state, seat), seat, rngs[seat])
        if move not in adapter.legal_moves(state):
            raise InputError(f"bot {name!r} at seat {seat} chose {move!r}, which is not legal")
        after = adapter.apply(state, move)
        if observer is not None:
            observer(state, seat, move, after)
        state = after
    return state


def run_match(adapter: GameAdapter, players: int, bots: Sequence[tuple[str, Bot]], games: int,
              seed: int = 0, on_game: Callable[[int, MatchResult], None] | None = None,
              margin: Callable[[Any, int], float] | None = None) -> MatchResult:
    """Play ``games`` games between ``bots`` (one (name, bot) per seat, ``len(bots) ==
    players``), seats rotating (module docstring). ``on_game(i, result_so_far)`` after each;
    ``margin(final_state, seat)``: a seat's final margin, averaged per entrant when given."""
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    games = check_whole(games, 1, COUNT_MAX, "games")
    seed = check_seed(seed)
    if on_game is not None and not callable(on_game):
        raise InputError(f"on_game is a callable or None, got {type(on_game).__name__}")
    entrants = [EntrantScore(name, seat_games=[0] * players,
                             margin_total=None if margin is None else 0.0)
                for name in unique_names(bots)]
    result = MatchResult(adapter.name, players, 0, seed, entrants, 0.0)
    start = time.perf_counter()
    for g in range(games):
        at_seat = seating(g, players)
        final = play_game(adapter, adapter.new_game(deal_seed(seed, g, players), players),
                          [bots[e] for e in at_seat], [bot_rng(seed, g, e) for e in at_seat])
        for seat, reward in enumerate(adapter.result(final)):
            entrants[at_seat[seat]].record(seat, float(reward))
            if margin is not None:
                entrants[at_seat[seat]].margin_total += margin(final, seat)
        result.games, result.seconds = g + 1, time.perf_counter() - start
        if on_game is not None:
            on_game(g, result)
    return result


def unique_names(bots: Sequence[tuple[str, Bot]]) -> list[str]:
    """The bots' names, a repeated name numbered from its second use (``random#2``)."""
    seen: dict[str, int] = {}
    names = []
    for name, _ in bots:
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return names


@dataclass
class Frame:
    """One position of a played game: ``action`` (by ``seat``) led to it (None at the start);
    ``position`` in the game's notation, ``picture`` for people; ``result`` per seat once over."""

    ply: int
    seat: int | None
    action: str | None
    position: str
    picture: str
    result: tuple[float, ...] | None = None

    def to_dict(self) -> dict:
        return dict(ply=self.ply, seat=self.seat, action=self.action, position=self.position,
                    picture=self.picture,
                    result=None if self.result is None else list(self.result))

    def lines(self) -> list[str]:
        head = "start" if self.action is None else \
            f"ply {self.ply}: seat {self.seat} plays {self.action}"
        return [head, self.picture, f"position: {self.position}", ""]


def record_game(adapter: GameAdapter, start, seat_bots: Sequence[tuple[str, Bot]], seed: int,
                to_text: Callable[[Any], str], draw: Callable[[Any], str],
                action_to_text: Callable[[Any, Any], str],
                observer: Callable[[Frame], None] | None = None) -> list[Frame]:
    """Play ``start`` to the end with one bot per seat (their generators drawn from ``seed``) and
    return every position as a :class:`Frame`; ``observer(frame)`` sees each one as it comes."""
    frames = [Frame(0, None, None, to_text(start), draw(start))]
    if observer is not None:
        observer(frames[0])

    def record(state, seat, action, after):
        frames.append(Frame(len(frames), seat, action_to_text(state, action), to_text(after),
                            draw(after)))
        if observer is not None:
            observer(frames[-1])

    rngs = [bot_rng(seed, 0, seat) for seat in range(len(seat_bots))]
    final = play_game(adapter, start, seat_bots, rngs, observer=record)
    frames[-1].result = tuple(adapter.result(final))
    return frames


def human_bot(read_line: Callable[[str], str], write: Callable[[str], None],
              action_from_text: Callable[[Any, str], Any], describe_moves: Callable[[Any], str]
              ) -> Bot:
    """A person at the terminal: ``read_line(prompt)`` gives a move's text, a bad one gets a
    one-line complaint through ``write`` and the prompt again. End of input (Ctrl-D) raises
    :class:`GameAbandoned`."""
    def bot(state, seat, rng):
        while True:
            try:
                text = read_line(f"seat {seat}, your move ({describe_moves(state)}): ")
            except EOFError:
                raise GameAbandoned("the game was ended at the prompt (end of input)") from None
            try:
                return action_from_text(state, text)
            except InputError as error:
                write(f"{error}")
    return bot
