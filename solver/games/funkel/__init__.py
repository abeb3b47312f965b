"""Funkel Munkel: the reference rules (``rules``), positions as JSON (``codec``), and the user
API with the kernel bridge and the bots (``api``, loaded on demand).

This package re-exports the reference, so ``from solver.games import funkel`` is the oracle.
"""
from solver.games.funkel.codec import *  # noqa: F401,F403
from solver.games.funkel.rules import *  # noqa: F401,F403

# --- the game contract's names (solver.games) -----------------------------------------------------
from solver.games import Game  # noqa: E402
from solver.games.funkel.codec import from_json as from_text  # noqa: E402,F401
from solver.games.funkel.codec import to_json as to_text  # noqa: E402,F401
from solver.games.funkel.rules import INFO, LAYOUTS, Push, Place, COMMON  # noqa: E402
from solver.games.funkel.rules import public_view, sample_hidden  # noqa: E402
from solver.options import PLAYERS, SEED, THREADS, Option, count, seconds, whole  # noqa: E402


def current_player(state) -> int:
    return state.to_move


def observe(state, seat: int):
    """What ``seat`` knows: every seat sees the same public view."""
    return public_view(state)


def sample(view, rng):
    """A full state drawn uniformly among those consistent with the public view."""
    return sample_hidden(view, rng)


def action_to_text(state, action) -> str:
    """An action in words: ``rail 2: colour 0 cart``, ``rail 1: common cart``, ``display 2``,
    ``pass``."""
    if isinstance(action, Push):
        cart = "common" if action.kind == COMMON else f"colour {action.kind}"
        return f"rail {action.rail}: {cart} cart"
    if isinstance(action, Place):
        return f"display {action.display}"
    return "pass"


def action_from_text(state, text: str):
    """A legal action by its words (as :func:`action_to_text` writes them) or its number in the
    list of legal actions (1 = the first)."""
    from solver.games.funkel.rules import legal_actions
    return pick_action(legal_actions(state), lambda a: action_to_text(state, a), text)


def pick_action(actions, name, text: str):
    from solver.errors import InputError
    text = text.strip()
    for i, action in enumerate(actions, 1):
        if text == name(action) or text == str(i):
            return action
    raise InputError(f"{text[:60]!r} is not a legal action: give its number 1..{len(actions)} "
                     f"or its name")


GAME = Game(
    info=INFO,
    commands="solver.games.funkel.commands",
    api="solver.games.funkel.api",
    capabilities=frozenset({"estimate", "mcts"}),
    rules_options=(
        PLAYERS,
        Option("--layout", str, "pinwheel (default) or crossing",
               choices=tuple(LAYOUTS)),
    ),
    best_options=(
        Option("--time", seconds, "estimate for S seconds", metavar="S", group="budget"),
        Option("--samples", count, "N samples (mc: hidden deals; mcts: simulations)",
               metavar="N", group="budget"),
        Option("--method", str, "mc: flat Monte Carlo (default); mcts: determinized MCTS; "
               "chance-mcts: MCTS over public views with chance nodes at reveals",
               default="mc", choices=("mc", "mcts", "chance-mcts")),
        Option("--exact", None, "solve exactly (small positions): each push's win probability "
               "under best play"),
        Option("--max-states", count, "with --exact: give up beyond N table entries (default "
               "1400000)", metavar="N"),
        Option("--rollout", str, "random (default) or greedy", default="random",
               choices=("random", "greedy")),
        Option("--seat", whole(0, 3, "the seat"), "the asking seat (must be the seat to move)"),
        THREADS,
        SEED,
    ),
    new_options=(Option("--view", None, "only what the players see"),),
    position_help="a position file ('-': standard input) or the position itself, as `solver "
    "new funkel` prints",
    variants=(dict(players=2), dict(players=3, layout="crossing"),
              dict(players=4, hidden_shafts=True)),
    bench_positions="funkel.jsonl",
    human_play=True,
)
