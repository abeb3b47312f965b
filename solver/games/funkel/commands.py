"""Funkel Munkel on the command line: what ``solver best|new|play|match funkel`` call, and how
their answers are printed. The parsers come from the options the registry record declares."""
from __future__ import annotations


from solver.bench import timed
from solver.games.funkel import rules as reference


def _rules(rules_options: dict):
    from solver.options import DEFAULT_PLAYERS, check_players
    players = rules_options["players"] or DEFAULT_PLAYERS      # None: not given
    check_players(players)
    layout = rules_options["layout"] or reference.Rules.layout     # None: the rules' default
    return reference.Rules(players, layout)


LABELS = {"win_rate_random_continuation": "win rate if all then play randomly",
          "win_rate_greedy_continuation": "win rate if all then play greedily",
          "search_value": "search value (mean simulation reward)",
          "win_probability": "win probability under best play (exact)"}


def best(position: str, rules_options: dict, options: dict):
    from solver.errors import InputError
    from solver.games.funkel import GAME
    from solver.games.funkel.codec import check_seat, view_of
    from solver.options import refuse_contradicting_rules
    view = view_of(position)
    refuse_contradicting_rules(rules_options, GAME.rules_options, view.rules)
    if options["exact"]:
        if options["method"] != "mc" or options["samples"] is not None or \
                options["time"] is not None:
            raise InputError("--exact takes no --method, --samples or --time: it solves the "
                             "position")
    elif options["max_states"] is not None:
        raise InputError("--max-states goes with --exact")
    check_seat(view, options["seat"], "solved" if options["exact"] else "estimated")
    from solver.games.funkel import api     # compiled kernels: only once the input is good
    if options["exact"]:
        return api.exact_moves(view, seat=options["seat"], max_states=options["max_states"])
    common = dict(seat=options["seat"], seconds=options["time"], rollout=options["rollout"],
                  threads=options["threads"], seed=options["seed"])
    run = {"mc": api.estimate_moves, "mcts": api.mcts_moves,
           "chance-mcts": api.chance_mcts_moves}[options["method"]]
    budget = "samples" if options["method"] == "mc" else "simulations"
    return run(view, **{budget: options["samples"]}, **common)


def best_text(found) -> str:
    """The answer of :func:`best` (the API's record) as the command prints it."""
    from solver.games.funkel import api
    if found.method == "exact":
        return _exact_text(found)
    unit = "samples" if found.method == "mc" else "visits"
    width = max(len(m.name) for m in found.moves)
    lines = [_picture(found), "", f"seat {found.seat} to move; {found.method} "
             f"estimate, {found.samples:,} {'samples' if found.method == 'mc' else 'simulations'}"
             f", {found.seconds:.2f} s (stopped: {found.stopped})",
             f"each figure is the {LABELS[found.estimates]} ({found.estimates}), not the win "
             f"probability under best play", "",
             f"{'push':<{width}} {'value':>7}   95% interval {unit:>12}"]
    for m in found.moves:
        mark = "  <- best" if m.action == found.best else ""
        lines.append(f"{m.name:<{width}} {m.value:>7.1%}   [{m.low:5.1%}, {m.high:5.1%}] "
                     f"{m.samples:>12,}{mark}")
    lines.append(f"recommended: {api.describe(found.best)}")
    return "\n".join(lines)


def _picture(found) -> str:
    from solver.games.funkel.codec import from_json
    return reference.draw(from_json(found.position))


def _exact_text(found) -> str:
    from solver.games.funkel import api
    lines = [_picture(found), "", f"seat {found.seat} to move; solved exactly "
             f"({found.states:,} positions and reveals, {found.seconds:.2f} s)",
             "win probability and expected result (a shared win counts its share) under best "
             "play: max-n, equal values to the first push in legal order", "",
             f"{'push':<26} {'win prob':>9} {'expected':>9}"]
    for m in found.moves:
        mark = "  <- best" if m.action == found.best else ""
        lines.append(f"{api.describe(m.action):<26} {m.win[found.seat]:>9.2%} "
                     f"{m.expected[found.seat]:>9.4f}{mark}")
    lines.append(f"recommended: {api.describe(found.best)}")
    return "\n".join(lines)


def new(rules_options: dict, seed: int, options: dict) -> str:
    from solver.games.funkel.codec import to_json
    state = reference.new_game(_rules(rules_options), seed)
    return to_json(reference.public_view(state) if options["view"] else state)


# api.BOTS's names, known here so that a wrong one is refused before the kernels load (a test
# checks the two agree)
BOT_KINDS = ("random", "greedy", "mc", "mcts", "chance-mcts")


def _check_bots(bots: list) -> None:
    from solver.match import check_bot_kinds
    check_bot_kinds("funkel", bots, BOT_KINDS)


def play(rules_options: dict, bots: list, seed: int, observer=None):
    _check_bots(bots)
    from solver.games.funkel import api
    rules = _rules(rules_options)
    frames = api.play_game(rules.players, bots, seed, rules.layout)
    if observer is not None:
        for frame in frames:
            observer(frame)
    return frames


def match(rules_options: dict, bots: list, games: int, seed: int):
    _check_bots(bots)
    from solver.games.funkel import api
    rules = _rules(rules_options)
    return api.match(rules.players, bots, games, seed, rules.layout)


def bots():
    from solver.games.funkel.api import BOTS
    return BOTS


# --- solver bench -------------------------------------------------------------------------------

def bench_positions() -> list[dict]:
    from solver.bench import json_positions
    return json_positions("funkel")


def bench_searches():
    from solver.bench import BenchSearch
    return [BenchSearch("funkel", "mc", _bench_mc, _bench_warm_up),
            BenchSearch("funkel", "mcts", _bench_mcts, _bench_warm_up)]


# Fixed budgets: "nodes" are playouts (mc) or tree simulations (mcts), identical at one thread
# for a fixed seed. ``--depth`` does not apply.
SAMPLES = 2_000          # mc rounds (each plays every push once)
SIMULATIONS = 20_000     # determinized MCTS simulations, over 8 deals


def _bench_mc(entry: dict, depth: int | None, threads: int) -> int:
    from solver.games.funkel import api as funkel
    return timed(entry, lambda: funkel.estimate_moves(
        entry["position"], samples=SAMPLES, threads=threads, seed=0,
        stop_when_separated=False).playouts)


def _bench_mcts(entry: dict, depth: int | None, threads: int) -> int:
    from solver.games.funkel import api as funkel
    return timed(entry, lambda: funkel.mcts_moves(
        entry["position"], simulations=SIMULATIONS, threads=threads, seed=0).samples)


def _bench_warm_up():
    from solver.games.funkel import api as funkel
    position = funkel.new_position(2, seed=0, view=True)
    funkel.estimate_moves(position, samples=50)
    funkel.mcts_moves(position, simulations=100)
