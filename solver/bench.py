"""`solver bench`: fixed searches on fixed positions, a profile of search speed.

Each game registers benchmark *searches*: a name, and a function that runs one search of a
position from the versioned lists in ``benches/positions/`` at fixed settings and returns the
nodes it visited. At one thread the total node count is deterministic: a signature of the
search's behaviour (as Stockfish's ``bench``), so a change that alters it changed the search.
Compile (or cache-load) time is measured apart, by a warm-up search before the clock starts.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from solver.errors import InputError

POSITIONS_DIR = Path(__file__).resolve().parents[1] / "benches" / "positions"
BENCH_VERSION = 1


@dataclass
class BenchRow:
    game: str
    search: str
    position: str
    nodes: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass
class BenchReport:
    rows: list[BenchRow] = field(default_factory=list)
    compile_seconds: dict[str, float] = field(default_factory=dict)
    settings: dict = field(default_factory=dict)

    @property
    def nodes(self) -> int:
        return sum(row.nodes for row in self.rows)

    @property
    def seconds(self) -> float:
        return sum(row.seconds for row in self.rows)

    def to_dict(self) -> dict:
        return dict(version=BENCH_VERSION, settings=self.settings,
                    rows=[dict(game=r.game, search=r.search, position=r.position, nodes=r.nodes,
                               seconds=round(r.seconds, 6),
                               nodes_per_second=round(r.nodes_per_second)) for r in self.rows],
                    compile_seconds={k: round(v, 3) for k, v in self.compile_seconds.items()},
                    total=dict(nodes=self.nodes, seconds=round(self.seconds, 6),
                               nodes_per_second=round(self.nodes / self.seconds)
                               if self.seconds > 0 else 0))

    def table(self) -> str:
        width = max([len(r.position) for r in self.rows] + [8])
        lines = [f"{'game':<8} {'search':<12} {'position':<{width}} {'nodes':>13} "
                 f"{'nodes/s':>12} {'seconds':>9}"]
        for r in self.rows:
            lines.append(f"{r.game:<8} {r.search:<12} {r.position:<{width}} {r.nodes:>13,} "
                         f"{r.nodes_per_second:>12,.0f} {r.seconds:>9.3f}")
        compile_total = sum(self.compile_seconds.values())
        lines.append("")
        for key in dict.fromkeys((r.game, r.search) for r in self.rows):
            rows = [r for r in self.rows if (r.game, r.search) == key]
            nodes, seconds = sum(r.nodes for r in rows), sum(r.seconds for r in rows)
            lines.append(f"{key[0] + '/' + key[1]:<17}: {nodes} nodes, "
                         f"{nodes / seconds if seconds else 0:,.0f} nodes/s, {seconds:.3f} s")
        lines += ["",
                  f"Total nodes      : {self.nodes}",
                  f"Nodes/second     : {self.nodes / self.seconds if self.seconds else 0:,.0f}",
                  f"Search time      : {self.seconds:.3f} s",
                  f"Compile/load time: {compile_total:.3f} s (not in the search time)"]
        return "\n".join(lines)


@dataclass
class BenchSearch:
    """One benchmark search of a game: ``run(position_line, depth, threads) -> nodes``."""

    game: str
    name: str
    run: Callable[[dict, int | None, int], int]
    warm_up: Callable[[], None]


def mancala_positions() -> list[dict]:
    """benches/positions/mancala.txt: [{name, position, capture_empty}] in file order."""
    path = POSITIONS_DIR / "mancala.txt"
    if not path.exists():
        raise InputError(f"benchmark positions not found at {path} (install the package from "
                         f"its source tree: pip install -e .)")
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, position, capture = (part.strip() for part in line.split(";"))
            rows.append(dict(name=name, position=position, capture_empty=capture == "1"))
    return rows


def _mancala_alphabeta(entry: dict, depth: int | None, threads: int) -> int:
    from solver.games.mancala import api as mancala
    from solver.search.alphabeta import AlphaBeta
    engine = AlphaBeta(mancala.kernel_game(), 64)
    engine.tt[:] = 0  # page the table in before the clock starts
    state = mancala.to_packed(replace(mancala.from_text(entry["position"]), capture_empty=entry["capture_empty"]))
    start = time.perf_counter()
    found = engine.iterate(state, max_depth=depth or 20)
    entry["_seconds"] = time.perf_counter() - start
    return found.nodes


def _mancala_perft(entry: dict, depth: int | None, threads: int) -> int:
    from solver.games.mancala import api as mancala
    pos = mancala.from_text(entry["position"])
    start = time.perf_counter()
    leaves = mancala.perft(replace(pos, capture_empty=entry["capture_empty"]), min(depth or 10, 12))
    entry["_seconds"] = time.perf_counter() - start
    return leaves


def _mancala_warm_up():
    from solver.games.mancala import api as mancala
    mancala.best_move("1,1/1,1 0-0 A", depth=2)
    mancala.perft(mancala.new_game(), 2)


def _json_positions(game: str) -> list[dict]:
    """benches/positions/GAME.jsonl: [{name, position (JSON text)}] in file order."""
    import json
    path = POSITIONS_DIR / f"{game}.jsonl"
    if not path.exists():
        raise InputError(f"benchmark positions not found at {path} (install the package from "
                         f"its source tree: pip install -e .)")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [dict(name=row["name"], position=json.dumps(row["position"])) for row in rows]


# Fixed budgets of the Monte Carlo searches: their "nodes" are playouts (mc, pimc) or tree
# simulations (mcts), identical at one thread for a fixed seed. ``--depth`` does not apply.
FUNKEL_SAMPLES = 2_000          # mc rounds (each plays every push once)
FUNKEL_SIMULATIONS = 20_000     # determinized MCTS simulations, over 8 deals
TUNHELL_ITERATIONS = 20_000     # playouts of PIMC and of ISMCTS


def _timed(entry: dict, run) -> int:
    start = time.perf_counter()
    nodes = run()
    entry["_seconds"] = time.perf_counter() - start
    return nodes


def _funkel_mc(entry: dict, depth: int | None, threads: int) -> int:
    from solver.games.funkel import api as funkel
    return _timed(entry, lambda: funkel.estimate_moves(
        entry["position"], samples=FUNKEL_SAMPLES, threads=threads, seed=0,
        stop_when_separated=False).playouts)


def _funkel_mcts(entry: dict, depth: int | None, threads: int) -> int:
    from solver.games.funkel import api as funkel
    return _timed(entry, lambda: funkel.mcts_moves(
        entry["position"], simulations=FUNKEL_SIMULATIONS, threads=threads, seed=0).samples)


def _funkel_warm_up():
    from solver.games.funkel import api as funkel
    position = funkel.new_position(2, seed=0, view=True)
    funkel.estimate_moves(position, samples=50)
    funkel.mcts_moves(position, simulations=100)


def _tunhell_search(method: str):
    def run(entry: dict, depth: int | None, threads: int) -> int:
        from solver.games.tunhell import api as tunhell
        return _timed(entry, lambda: tunhell.best_action(
            entry["position"], method=method, iterations=TUNHELL_ITERATIONS, threads=threads,
            seed=0, stop_when_separated=False).iterations)
    return run


def _tunhell_warm_up():
    from solver.games.tunhell import api as tunhell
    position = tunhell.new_position(2, seed=0)
    for method in ("pimc", "ismcts"):
        tunhell.best_action(position, method=method, iterations=200)


SEARCHES = {
    "mancala": [BenchSearch("mancala", "alphabeta", _mancala_alphabeta, _mancala_warm_up),
                BenchSearch("mancala", "perft", _mancala_perft, _mancala_warm_up)],
    "funkel": [BenchSearch("funkel", "mc", _funkel_mc, _funkel_warm_up),
               BenchSearch("funkel", "mcts", _funkel_mcts, _funkel_warm_up)],
    "tunhell": [BenchSearch("tunhell", "pimc", _tunhell_search("pimc"), _tunhell_warm_up),
                BenchSearch("tunhell", "ismcts", _tunhell_search("ismcts"), _tunhell_warm_up)],
}
POSITIONS = {"mancala": mancala_positions, "funkel": lambda: _json_positions("funkel"),
             "tunhell": lambda: _json_positions("tunhell")}


def run_bench(games: list[str] | None = None, depth: int | None = None,
              threads: int = 1) -> BenchReport:
    """Run every registered search of ``games`` (all when None) on its fixed positions."""
    games = games or list(SEARCHES)
    unknown = [g for g in games if g not in SEARCHES]
    if unknown:
        raise InputError(f"no benchmark for {', '.join(unknown)}; known: {', '.join(SEARCHES)}")
    if depth is not None and not 1 <= depth <= 40:
        raise InputError(f"bench depth must be 1..40, got {depth}")
    if threads < 1:
        raise InputError(f"threads must be at least 1, got {threads}")
    report = BenchReport(settings=dict(games=games, depth=depth, threads=threads))
    for game in games:
        for search in SEARCHES[game]:
            start = time.perf_counter()
            search.warm_up()
            report.compile_seconds[f"{game}/{search.name}"] = time.perf_counter() - start
            for entry in POSITIONS[game]():
                nodes = search.run(entry, depth, threads)
                report.rows.append(BenchRow(game, search.name, entry["name"], nodes,
                                            entry.pop("_seconds")))
    return report


def plot(report: BenchReport, path: str) -> None:
    """Nodes/second per position and search, as a horizontal bar chart (needs matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install 'solver[plot]'") from None
    labels = [f"{r.game}/{r.search}/{r.position}" for r in report.rows]
    rates = [r.nodes_per_second / 1e6 for r in report.rows]
    figure, axes = plt.subplots(figsize=(9, 0.32 * len(labels) + 1.2))
    axes.barh(labels[::-1], rates[::-1], color="tab:blue")
    axes.set_xlabel("million nodes per second")
    axes.set_title(f"solver bench (total {report.nodes:,} nodes)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
