"""Mancala bots for ``solver play`` and ``solver match``: ``random``, ``greedy`` (the biggest
immediate store gain), ``alphabeta[:DEPTH | :SECONDSs]``, ``exact`` (a proof, probing the
endgame tables when built) and ``mcts[:SIMULATIONS]``.

A bot is ``bot(position, seat, rng) -> bin number`` (``solver.match``). Searching bots keep
one search context (transposition table) for the whole game; their own randomness (the MCTS
seed) comes from ``rng``, so a match is reproducible for its seed.
"""
from __future__ import annotations

import random

from solver import match as matches
from solver.errors import InputError
from solver.games.mancala.rules import Position, apply, legal_actions
from solver.options import is_decimal_text, is_digits

DEFAULT_DEPTH = 10
DEFAULT_SIMULATIONS = 20_000
BOT_TABLE_MB = 16


def random_bot(pos: Position, seat: int, rng: random.Random) -> int:
    return rng.choice(legal_actions(pos))


def store_gain(pos: Position, move: int) -> int:
    """What the move banks at once for the mover (its own store, extra turns not followed)."""
    return apply(pos, move).stores[pos.to_move] - pos.stores[pos.to_move]


def greedy_bot(pos: Position, seat: int, rng: random.Random) -> int:
    """The move that banks the most at once; an extra turn breaks ties, then chance."""
    moves = legal_actions(pos)
    rank = {m: (store_gain(pos, m), apply(pos, m).to_move == pos.to_move) for m in moves}
    top = max(rank.values())
    return rng.choice([m for m in moves if rank[m] == top])


class AlphaBetaBot:
    """Iterative-deepening alpha-beta to ``depth`` sowings, or for ``seconds`` a move;
    ``exact``: prove every move (with the default table folder's endgame tables, if built;
    else, as ``best_move`` does, with the levels ``automatic_levels`` picks for the first
    position it does not prove in ``best_move``'s quick try, computed in memory).

    Each move gets a fresh transposition table, as ``best_move`` does: the search's "exact"
    verdict (no heuristic leaf was used) holds only for a table that saw no other search. The
    endgame tables are loaded (or computed) once per bot."""

    def __init__(self, depth: int | None = None, seconds: float | None = None,
                 exact: bool = False):
        self.depth, self.seconds, self.exact = depth, seconds, exact
        self.tables = {}        # endgame tables per board size and rule, loaded on first use

    def __call__(self, pos: Position, seat: int, rng: random.Random) -> int:
        from solver.games.mancala import api
        moves = legal_actions(pos)
        if len(moves) == 1:
            return moves[0]
        if self.exact and (pos.m, pos.capture_empty) not in self.tables:
            quick = self._quick_try(pos)
            if quick is not None:
                return quick
        engine = self._engine(pos)
        state = api.to_packed(pos)
        if self.exact:
            found = engine.solve(state)
        else:
            found = engine.iterate(state, max_depth=self.depth, seconds=self.seconds)
        return api.move_of(found.move, pos.to_move, pos.m)

    def _quick_try(self, pos: Position) -> int | None:
        """An optimal move, if the levels this position would get are automatic and
        ``best_move``'s quick try without them proves it (then no level is computed yet)."""
        from solver.games.mancala import api
        rules = api.Rules(pos.m, 1, pos.capture_empty)
        if api.planned_tables(None, None, pos, rules, exact=True)[1] is None:
            return None
        quick = api.quick_try(pos, rules)
        return None if quick is None or quick.stopped is not None else quick.move

    def _engine(self, pos: Position):
        from solver.games.mancala import api
        from solver.search.alphabeta import AlphaBeta
        key = (pos.m, pos.capture_empty)
        if self.exact and key not in self.tables:
            rules = api.Rules(pos.m, 1, pos.capture_empty)
            self.tables[key], _ = api.search_tables(tables=None, memory_tables=None, pos=pos,
                                                    rules=rules, exact=True, threads=1)
        tables = self.tables.get(key)
        mb = api.default_table_mb(pos, True) if self.exact else BOT_TABLE_MB
        return AlphaBeta(api.kernel_game(with_tables=tables is not None), mb, tables)


def mcts_bot(simulations: int = DEFAULT_SIMULATIONS):
    def bot(pos: Position, seat: int, rng: random.Random) -> int:
        from solver.games.mancala.mcts import mcts_best_move
        moves = legal_actions(pos)
        if len(moves) == 1:
            return moves[0]
        return mcts_best_move(pos, simulations=simulations, seed=rng.getrandbits(32)).move
    return bot


def _alphabeta_from(options: list[str]) -> matches.Bot:
    if not options:
        return AlphaBetaBot(depth=DEFAULT_DEPTH)
    if len(options) == 1:
        text = options[0]
        if text.endswith("s") and _is_number(text[:-1]) and 0 < float(text[:-1]) <= 3600:
            return AlphaBetaBot(seconds=float(text[:-1]))
        if is_digits(text) and 1 <= int(text) <= 254:
            return AlphaBetaBot(depth=int(text))
    raise InputError(f"bot alphabeta takes a depth 1..254 or a time such as 2s (at most 3600s), "
                     f"got alphabeta:{':'.join(options)}")


def _is_number(text: str) -> bool:
    if not is_decimal_text(text):     # float() also reads other scripts' digits, and "1_0"
        return False
    try:
        float(text)
    except ValueError:
        return False
    return text.strip() == text and text.lower() not in ("nan", "inf", "infinity")


def _mcts_from(options: list[str]) -> matches.Bot:
    if not options:
        return mcts_bot()
    if len(options) == 1 and is_digits(options[0]) and 1 <= int(options[0]) <= 10**9:
        return mcts_bot(int(options[0]))
    raise InputError(f"bot mcts takes a number of simulations 1..10^9, got "
                     f"mcts:{':'.join(options)}")


def _exact_from(options: list[str]) -> matches.Bot:
    if options:
        raise InputError(f"bot 'exact' takes no options, got exact:{':'.join(options)}")
    return AlphaBetaBot(exact=True)


# ``name[:options]`` -> bot; another bot joins with ``BOTS.register(name, factory)``.
BOTS = matches.BotNames("mancala", {
    "random": matches.without_options(random_bot, "random"),
    "greedy": matches.without_options(greedy_bot, "greedy"),
    "alphabeta": _alphabeta_from,
    "exact": _exact_from,
    "mcts": _mcts_from,
})


# --- games and matches ----------------------------------------------------------------------------

OPENING_PLIES = (2, 4)   # a match game starts after 2..4 random sowings drawn from its deal seed


def opening(rules, seed: int) -> Position:
    """The start of a match game: the Kalah(m, n) start and a few random sowings drawn from
    ``seed`` (the match runner gives both games of a colour swap the same seed), never a position
    already decided by the end of the game."""
    from solver.games.mancala.rules import is_over, new_game
    rng = random.Random(f"mancala-opening/{seed}")
    while True:
        pos = new_game(rules)
        for _ in range(rng.randint(*OPENING_PLIES)):
            pos = apply(pos, rng.choice(legal_actions(pos)))
            if is_over(pos):
                break
        if not is_over(pos):
            return pos


def adapter(rules, openings: bool = True) -> matches.GameAdapter:
    """Mancala for the match runner; ``openings``: each game starts from :func:`opening`."""
    from solver.games.mancala import rules as reference
    start = (lambda seed, players: opening(rules, seed)) if openings else \
        (lambda seed, players: reference.new_game(rules))
    return matches.GameAdapter(
        name="mancala", new_game=start, legal_moves=legal_actions, apply=apply,
        is_over=reference.is_over, result=reference.result, to_move=reference.current_player)


def play_game(rules, bots, seed: int = 0, observer=None) -> list[matches.Frame]:
    """One game from the start of ``rules``, ``bots[side]`` (names or callables) for A and B:
    every position as a frame (notation, picture, the move that led to it)."""
    from solver.games.mancala import rules as reference
    game = adapter(rules, openings=False)
    return matches.record_game(game, reference.new_game(rules), BOTS.seated(bots, 2), seed,
                               to_text=reference.to_text, draw=reference.draw,
                               action_to_text=reference.action_to_text, observer=observer)


def match(rules, bots, games: int, seed: int = 0, on_game=None) -> matches.MatchResult:
    """``games`` games between two bots, colours alternating, each opening (:func:`opening`)
    played with both colours; win rates (draws a half) with 95% intervals and the mean final
    store margin of each bot."""
    return matches.run_match(adapter(rules), 2, BOTS.seated(bots, 2), games, seed,
                             on_game=on_game, margin=final_margin)


def final_margin(final: Position, seat: int) -> int:
    """A finished game's final store difference, ``seat`` minus the other."""
    from solver.games.mancala.rules import final_stores
    a, b = final_stores(final)
    return a - b if seat == 0 else b - a
