"""Tunhell on the command line: what ``solver best|new|play|match tunhell`` call, and how their
answers are printed. The parsers come from the options the registry record declares."""
from __future__ import annotations

from solver.bench import timed


def _players_intro(rules_options: dict) -> tuple[int, bool, bool]:
    from solver.options import DEFAULT_PLAYERS, check_players
    players = rules_options["players"] or DEFAULT_PLAYERS      # None: not given
    check_players(players)
    return players, rules_options["intro"], rules_options["dig_may_stop"]


def best(position: str, rules_options: dict, options: dict):
    from solver.games.tunhell import GAME, api
    from solver.options import refuse_contradicting_rules
    refuse_contradicting_rules(rules_options, GAME.rules_options,
                               api.read_position(position).rules)
    return api.best_action(position, options["seat"], options["method"], options["time"],
                           options["iterations"], options["threads"], options["seed"])


def best_text(found) -> str:
    """Each action on its own row; the name column is as wide as the longest name, so two
    actions never print alike."""
    from solver.games.tunhell.api import ESTIMATES, SEARCH_VALUE
    width = max([len(m.name) for m in found.moves] + [len("action")])
    label = ESTIMATES[found.method]
    counted = "visits" if label == SEARCH_VALUE else "samples"
    lines = [f"seat {found.seat} to move; {found.method}, {found.iterations:,} playouts, "
             f"{found.seconds:.2f} s (stopped: {found.stopped})",
             f"value: {label} (the seat's mean result share; not a win probability under best "
             "play)", "",
             f"{'action':<{width}} {'value':>6}  {'95% interval':<15} {'margin':>7}  "
             f"{'95% interval':<15} {counted:>8}"]
    for m in found.moves:
        win = "-" if m.value is None else f"{m.value:.1%}"
        low, high = m.win_interval
        margin = "-" if m.margin is None else f"{m.margin:+.2f}"
        spread = "" if m.margin_interval is None else \
            f"[{m.margin_interval[0]:+.2f}, {m.margin_interval[1]:+.2f}]"
        mark = "  <- best" if m.action == found.best else ""
        lines.append(f"{m.name:<{width}} {win:>6}  [{low:5.1%}, {high:5.1%}] {margin:>7}  "
                     f"{spread:<15} {m.samples:>8,}{mark}")
    lines.append(f"recommended: {found.best_name}")
    return "\n".join(lines)


def new(rules_options: dict, seed: int, options: dict) -> str:
    from solver.games.tunhell import api
    from solver.errors import InputError
    players, intro, may_stop = _players_intro(rules_options)
    if options["seat"] >= players:
        raise InputError(f"--seat must be 0..{players - 1} with {players} players, got "
                         f"{options['seat']}")
    return api.new_position(players, intro, seed, options["seat"], may_stop)


def play(rules_options: dict, bots: list, seed: int, observer=None):
    from solver.games.tunhell import api
    players, intro, may_stop = _players_intro(rules_options)
    turns = api.play_game(players, bots, intro, seed, may_stop)
    if observer is not None:
        for turn in turns:
            observer(turn)
    return turns


def match(rules_options: dict, bots: list, games: int, seed: int):
    from solver.games.tunhell import api
    players, intro, may_stop = _players_intro(rules_options)
    return api.match(players, bots, games, intro, seed, dig_may_stop=may_stop)


def bots():
    from solver.games.tunhell.api import BOTS
    return BOTS


# --- solver bench -------------------------------------------------------------------------------

def bench_positions() -> list[dict]:
    from solver.bench import json_positions
    return json_positions("tunhell")


def bench_searches():
    from solver.bench import BenchSearch
    return [BenchSearch("tunhell", "pimc", _bench_search("pimc"), _bench_warm_up),
            BenchSearch("tunhell", "ismcts", _bench_search("ismcts"), _bench_warm_up)]


ITERATIONS = 20_000     # playouts of PIMC and of ISMCTS; "nodes" are playouts


def _bench_search(method: str):
    def run(entry: dict, depth: int | None, threads: int) -> int:
        from solver.games.tunhell import api as tunhell
        return timed(entry, lambda: tunhell.best_action(
            entry["position"], method=method, iterations=ITERATIONS, threads=threads,
            seed=0, stop_when_separated=False).iterations)
    return run


def _bench_warm_up():
    from solver.games.tunhell import api as tunhell
    position = tunhell.new_position(2, seed=0)
    for method in ("pimc", "ismcts"):
        tunhell.best_action(position, method=method, iterations=200)
