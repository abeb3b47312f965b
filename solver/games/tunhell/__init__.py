"""Tunhell: the reference rules (``rules``), its cards (``cards``), information sets and what a
view may claim (``infoset``), positions as JSON (``codec``); the compiled engine's bridge
(``engine``), the greedy policy (``greedy``) and the user API (``api``, loaded on demand).

This package re-exports the reference, so ``from solver.games import tunhell`` is the oracle.
"""
from solver.games.tunhell.cards import *  # noqa: F401,F403
from solver.games.tunhell.codec import *  # noqa: F401,F403
from solver.games.tunhell.infoset import *  # noqa: F401,F403
from solver.games.tunhell.rules import *  # noqa: F401,F403

# --- the game contract's names (solver.games) -----------------------------------------------------
from solver.games import Game  # noqa: E402
from solver.games.tunhell.codec import from_json as from_text  # noqa: E402,F401
from solver.games.tunhell.codec import to_json as to_text  # noqa: E402,F401
from solver.games.tunhell.infoset import information_set, sample_state  # noqa: E402
from solver.games.tunhell.rules import INFO  # noqa: E402
from solver.options import PLAYERS, SEED, THREADS, Option, count, seconds, whole  # noqa: E402


def observe(state, seat: int):
    """What ``seat`` knows (its information set), the position the codec writes."""
    return information_set(state, seat)


def sample(view, rng):
    """A full state drawn uniformly among those consistent with a seat's information set."""
    return sample_state(view, rng)


def action_to_text(state, action) -> str:
    return str(action)


def action_from_text(state, text: str):
    """A legal action by its name or its number in the list of legal actions (1 = the first)."""
    from solver.games.funkel import pick_action
    from solver.games.tunhell.rules import legal_actions
    return pick_action(legal_actions(state), str, text)


def draw(position) -> str:
    """A seat's view (or a full state, seen by the seat to move), as its JSON lines."""
    from solver.games.tunhell.rules import State
    if isinstance(position, State):
        position = information_set(position, position.to_move)
    import json
    doc = json.loads(to_text(position))
    return "\n".join(f"{key}: {json.dumps(value)}" for key, value in doc.items())


GAME = Game(
    info=INFO,
    commands="solver.games.tunhell.commands",
    api="solver.games.tunhell.api",
    capabilities=frozenset({"ismcts", "pimc"}),
    rules_options=(
        PLAYERS,
        Option("--intro", None, "the introductory game (default: the full game)"),
        Option("--dig-may-stop", None, "rule option: the Digger may stop after any card "
               "(default: it digs until its capacity is spent)"),
    ),
    best_options=(
        Option("--time", seconds, "search for S seconds", metavar="S", group="budget"),
        Option("--iterations", count, "N playouts", metavar="N", group="budget"),
        Option("--method", str, "ismcts (default), pimc, or with the heuristic rollout "
               "policy ismcts-greedy, pimc-greedy", default="ismcts",
               choices=("ismcts", "pimc", "ismcts-greedy", "pimc-greedy")),
        Option("--seat", whole(0, 3, "the seat"), "the asking seat (must be the position's)"),
        THREADS,
        SEED,
    ),
    new_options=(Option("--seat", whole(0, 3, "the seat"), "whose view (default 0)",
                        default=0),),
    position_help="one seat's view as `solver new tunhell` prints: a file ('-': standard "
    "input) or the view itself",
    variants=(dict(players=2, intro=True), dict(players=2), dict(players=3),
              dict(players=4), dict(players=3, dig_may_stop=True)),
    bench_positions="tunhell.jsonl",
)
