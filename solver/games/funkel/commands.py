"""Funkel Munkel on the command line: what ``solver best|new|play|match funkel`` call, and how
their answers are printed. The parsers come from the options the registry record declares."""
from __future__ import annotations

from dataclasses import dataclass

from solver.bench import timed
from solver.games.funkel import rules as reference


def _rules(rules_options: dict):
    from solver.games.funkel.api import _check_players
    _check_players(rules_options["players"])
    return reference.Rules(rules_options["players"], rules_options["layout"])


def best(position: str, rules_options: dict, options: dict):
    from solver.games.funkel import api
    view = api.view_of(position)
    common = dict(seat=options["seat"], seconds=options["time"], rollout=options["rollout"],
                  threads=options["threads"], seed=options["seed"])
    if options["method"] == "mc":
        found = api.estimate_moves(view, samples=options["samples"], **common)
    else:
        found = api.mcts_moves(view, simulations=options["samples"], **common)
    return Answer(found, options["method"], view)


@dataclass
class Answer:
    """An estimate as the command prints it: the API's record, the method that made it and the
    view it answers."""

    found: object
    method: str
    view: object

    def to_dict(self) -> dict:
        return dict(self.found.to_dict(), method=self.method)


def best_text(answer: Answer) -> str:
    from solver.games.funkel import api
    found = answer.found
    unit = "samples" if answer.method == "mc" else "simulations"
    width = max(len(m.name) for m in found.moves)
    lines = [reference.draw(answer.view), "", f"seat {found.seat} to move; {answer.method} "
             f"estimate, {found.samples:,} {unit}, {found.seconds:.2f} s (stopped: "
             f"{found.stopped})", "", f"{'push':<{width}} {'win %':>7}   95% interval "
             f"{unit:>12}"]
    for m in found.moves:
        mark = "  <- best" if m.action == found.best else ""
        lines.append(f"{m.name:<{width}} {m.win_probability:>7.1%}   [{m.low:5.1%}, "
                     f"{m.high:5.1%}] {m.samples:>12,}{mark}")
    lines.append(f"recommended: {api.describe(found.best)}")
    return "\n".join(lines)


def new(rules_options: dict, seed: int, options: dict) -> str:
    from solver.games.funkel.codec import to_json
    state = reference.new_game(_rules(rules_options), seed)
    return to_json(reference.public_view(state) if options["view"] else state)


def play(rules_options: dict, bots: list, seed: int, observer=None):
    from solver.games.funkel import api
    rules = _rules(rules_options)
    frames = api.play_game(rules.players, bots, seed, rules.layout)
    if observer is not None:
        for frame in frames:
            observer(frame)
    return frames


def match(rules_options: dict, bots: list, games: int, seed: int):
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
