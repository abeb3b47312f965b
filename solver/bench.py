"""`solver bench`: fixed searches on fixed positions, a profile of search speed.

Each game of the registry offers benchmark *searches* (its command bridge's ``bench_searches``):
a name, and a function that runs one search of a position from the game's versioned list in
``solver/data/positions/`` (package data, so an installed wheel runs it) at fixed settings and
returns the nodes it visited. At one thread the total node count is deterministic: a signature of the
search's behaviour (as Stockfish's ``bench``), so a change that alters it changed the search.
Compile (or cache-load) time is measured apart, by a warm-up search before the clock starts.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from solver.errors import InputError, check_writable

POSITIONS_DIR = Path(__file__).resolve().parent / "data" / "positions"
BENCH_VERSION = 2
MAX_DEPTH = 40      # a bench search deeper than this runs for hours, not seconds


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
        versions = ", ".join(f"{g} {v}" for g, v in self.settings.get("rules_versions",
                                                                           {}).items())
        lines = [f"rules_version: {versions}", "", f"{'game':<8} {'search':<12} {'position':<{width}} {'nodes':>13} "
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
    """solver/data/positions/mancala.txt: [{name, position, capture_empty}] in file order."""
    path = _positions_file("mancala.txt")
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, position, capture = (part.strip() for part in line.split(";"))
            rows.append(dict(name=name, position=position, capture_empty=capture == "1"))
    return rows


def _positions_file(name: str) -> Path:
    path = POSITIONS_DIR / name
    if not path.exists():
        raise InputError(f"benchmark positions not found at {path}: the package is incomplete")
    return path


def json_positions(game: str) -> list[dict]:
    """solver/data/positions/GAME.jsonl: [{name, position (JSON text)}] in file order."""
    import json
    path = _positions_file(f"{game}.jsonl")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [dict(name=row["name"], position=json.dumps(row["position"])) for row in rows]


def timed(entry: dict, run) -> int:
    """Run one bench search, keeping its wall time in ``entry["_seconds"]``; its nodes back."""
    start = time.perf_counter()
    nodes = run()
    entry["_seconds"] = time.perf_counter() - start
    return nodes


def run_bench(games: list[str] | None = None, depth: int | None = None,
              threads: int = 1) -> BenchReport:
    """Run every bench search of ``games`` (all the registry's when None) on its positions."""
    from solver import games as registry
    games = games or list(registry.GAMES)
    unknown = [g for g in games if g not in registry.GAMES]
    if unknown:
        raise InputError(f"no benchmark for {', '.join(unknown)}; known: "
                         f"{', '.join(registry.GAMES)}")
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise InputError(f"bench depth must be 1..{MAX_DEPTH}, got {depth}")
    if threads < 1:
        raise InputError(f"threads must be at least 1, got {threads}")
    report = BenchReport(settings=dict(games=games, depth=depth, threads=threads, rules_versions={
        g: registry.get(g).info.rules_version for g in registry.GAMES}))
    for game in games:
        bridge = registry.get(game).command_bridge()
        for search in bridge.bench_searches():
            start = time.perf_counter()
            search.warm_up()
            report.compile_seconds[f"{game}/{search.name}"] = time.perf_counter() - start
            for entry in bridge.bench_positions():
                nodes = search.run(entry, depth, threads)
                report.rows.append(BenchRow(game, search.name, entry["name"], nodes,
                                            entry.pop("_seconds")))
    return report


def check_plot(path: str) -> None:
    """Refuse ``--plot PATH`` before the run, not after it (nothing measured is lost)."""
    from importlib.util import find_spec
    if find_spec("matplotlib") is None:
        raise InputError("--plot needs matplotlib: pip install 'solver[plot]'")
    check_output(path)


def plot(report: BenchReport, path: str) -> None:
    """Nodes/second per position and search, as a horizontal bar chart (needs matplotlib)."""
    check_plot(path)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = [f"{r.game}/{r.search}/{r.position}" for r in report.rows]
    rates = [r.nodes_per_second / 1e6 for r in report.rows]
    figure, axes = plt.subplots(figsize=(9, 0.32 * len(labels) + 1.2))
    axes.barh(labels[::-1], rates[::-1], color="tab:blue")
    axes.set_xlabel("million nodes per second")
    axes.set_title(f"solver bench (total {report.nodes:,} nodes)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


# --- saved runs and baselines -----------------------------------------------------------------

def check_output(path: str) -> None:
    """Refuse, before the run, a file the run could not write at its end."""
    check_writable(path, path)


def save(report: BenchReport, path: str) -> None:
    """Written whole or not at all (a temporary file renamed over ``path``, or over the file a
    symbolic link ``path`` names)."""
    import json

    from tables.format import atomic_file
    try:
        with atomic_file(check_writable(path, path)) as out:
            out.write((json.dumps(report.to_dict(), indent=1) + "\n").encode())
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror}") from None


def load(path: str) -> dict:
    """A report written by :func:`save` (or ``solver bench --json``)."""
    import json
    from solver.errors import read_input_file
    data = read_input_file(path, "baseline")
    try:
        saved = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):   # not UTF-8, not JSON, or a 5,000-digit number
        raise InputError(f"baseline {path} is not a bench report (not JSON)") from None
    if not isinstance(saved, dict) or not isinstance(saved.get("rows"), list):
        raise InputError(f"baseline {path} is not a bench report (no rows)")
    seen = set()
    for number, row in enumerate(saved["rows"], 1):
        problem = _row_problem(row)
        key = problem or (row["game"], row["search"], row["position"])
        if not problem and key in seen:
            problem = f"{'/'.join(key)} again"
        if problem:
            raise InputError(f"baseline {path} is not a bench report (row {number}: {problem})")
        seen.add(key)
    if not isinstance(saved.get("settings", {}), dict):
        raise InputError(f"baseline {path} is not a bench report (settings is not an object)")
    if saved.get("version") != BENCH_VERSION:   # its rows may mean something else
        raise InputError(f"baseline {path} is not a version-{BENCH_VERSION} bench report: save "
                         "a new one with this solver")
    return saved


def _row_problem(row) -> str | None:
    """What is wrong with a saved row (as :meth:`BenchReport.to_dict` writes them), or None."""
    import math
    if not isinstance(row, dict):
        return "not an object"
    for key in ("game", "search", "position"):
        if not isinstance(row.get(key), str):
            return f"{key} is not a string"
    nodes, rate = row.get("nodes"), row.get("nodes_per_second")
    if type(nodes) is not int or not 0 <= nodes < 2**63:
        return "nodes is not a node count"
    # a run's rate is 0 (no nodes) or at least a node a second: a tinier one would make the
    # ratio against it overflow to infinity
    if type(rate) not in (int, float) or not (rate == 0 or 1 <= rate < 1e18) or \
            not math.isfinite(rate):
        return "nodes_per_second is not a rate"
    return None


@dataclass
class Comparison:
    """Each position's speed now against a saved run: nodes/s ratio (now / then) and whether
    the node count, the search's signature, changed."""

    rows: list[dict]
    baseline_version: int | None
    settings_changed: dict = field(default_factory=dict)   # {setting: [then, now]}
    missing: list[str] = field(default_factory=list)       # positions only the baseline has

    def to_dict(self) -> dict:
        return dict(baseline_version=self.baseline_version, rows=self.rows,
                    settings_changed=self.settings_changed, missing=self.missing,
                    changed_signatures=sum(1 for r in self.rows if r["nodes_changed"]),
                    median_ratio=self.median_ratio)

    @property
    def median_ratio(self) -> float | None:
        import statistics
        ratios = [r["ratio"] for r in self.rows if r["ratio"] is not None]
        return round(statistics.median(ratios), 4) if ratios else None

    def table(self) -> str:
        lines = ["against the baseline (ratio = nodes/s now / then; '!' = the node count, the "
                 "search's signature, changed):"]
        for r in self.rows:
            ratio = "   new" if r["ratio"] is None else f"{r['ratio']:6.2f}"
            mark = "  ! nodes " + (f"{r['then_nodes']:,} -> " if r["then_nodes"] is not None
                                   else "") + f"{r['nodes']:,}" if r["nodes_changed"] else ""
            lines.append(f"  {r['game'] + '/' + r['search'] + '/' + r['position']:<40} "
                         f"{ratio}{mark}")
        lines.append(f"median ratio: {self.median_ratio}   changed signatures: "
                     f"{sum(1 for r in self.rows if r['nodes_changed'])}")
        for name, (then, now) in self.settings_changed.items():
            lines.append(f"settings differ: {name} was {then}, now {now} (node counts are "
                         "comparable only at equal settings)")
        if self.missing:
            lines.append(f"only in the baseline: {', '.join(self.missing)}")
        return "\n".join(lines)


def compare(report: BenchReport, saved: dict) -> Comparison:
    then = {(r.get("game"), r.get("search"), r.get("position")): r for r in saved["rows"]
            if isinstance(r, dict)}
    rows = []
    for r in report.rows:
        old = then.get((r.game, r.search, r.position))
        old_rate = old.get("nodes_per_second") if old else None
        ratio = r.nodes_per_second / old_rate if isinstance(old_rate, (int, float)) and \
            old_rate > 0 else None
        old_nodes = old.get("nodes") if old else None
        rows.append(dict(game=r.game, search=r.search, position=r.position, nodes=r.nodes,
                         then_nodes=old_nodes, nodes_changed=old_nodes != r.nodes,
                         ratio=None if ratio is None else round(ratio, 4)))
    then_settings = saved.get("settings") if isinstance(saved.get("settings"), dict) else {}
    changed = {name: [then_settings.get(name), now]
               for name, now in report.settings.items() if then_settings.get(name) != now}
    now_keys = {(r.game, r.search, r.position) for r in report.rows}
    missing = ["/".join(str(part) for part in key) for key in then if key not in now_keys]
    return Comparison(rows, saved.get("version"), changed, missing)
