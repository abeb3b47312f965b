"""The table of Kalah(m, n) values: every board m = 1..6 pits, n = 1..6 stones, both capture
rules, except Kalah(6,6), each solved by the real command line in a fresh process.

    python benches/kalah_table.py [--max-seconds 600] [--tables DIR] [--table-mb MB]
                                  [--pits 1-6] [--stones 1-6]
                                  [--rules both|capture_empty|no-capture-empty] [--json OUT]
                                  [--scheduler tcp://HOST:PORT] [--checkpoints DIR]

Each cell runs ``solver solve mancala --pits M --stones N [--no-capture-empty] --max-seconds S
--json`` and reports the first player's value (or, when the budget ran out, the bounds proven:
never a guess), the optimal first moves, every opening's value (extra-turn openings with their
continuations, "3-1", "3-2", ...), nodes, seconds, transposition-table size and endgame-table
levels used. Prints a markdown table per rule; ``--json`` writes every cell. ``--scheduler``
runs each cell on that Dask cluster (``solve --scheduler``: each opening a task; the workers
share the table folder). ``--checkpoints DIR`` keeps each cell's proven bounds in
``DIR/kalah-M-N-RULE.json`` (``solve --checkpoint``): rerunning the same command goes on from
them, so a cell longer than a machine stays up is proven over several runs (its ``checkpoint``
entry sums the nodes and seconds of all). Two local worker processes on the two cores::

    dask scheduler --host 127.0.0.1 --port 8786 --no-dashboard &
    dask worker tcp://127.0.0.1:8786 --nworkers 2 --nthreads 1 --memory-limit 0 --no-dashboard &
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path


def span(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def solve_cell(pits: int, stones: int, capture_empty: bool, max_seconds: float,
               tables: str | None, table_mb: int | None = None,
               scheduler: str | None = None, checkpoints: str | None = None) -> dict:
    command = [sys.executable, "-m", "solver", "solve", "mancala", "--pits", str(pits),
               "--stones", str(stones), "--max-seconds", str(max_seconds), "--json"]
    command += [] if scheduler is None else ["--scheduler", scheduler]
    if checkpoints is not None:
        rule = "capture-empty" if capture_empty else "no-capture-empty"
        command += ["--checkpoint", f"{checkpoints}/kalah-{pits}-{stones}-{rule}.json"]
    command += [] if capture_empty else ["--no-capture-empty"]
    if table_mb is not None:
        command += ["--table-mb", str(table_mb)]
    done = subprocess.run(command + (["--tables", tables] if tables else ["--no-tables"]),
                          capture_output=True, text=True)
    if tables and done.returncode == 2 and "tables in" in done.stderr:
        # the folder has no tables of this board and rule: the cell runs without
        done = subprocess.run(command + ["--no-tables"], capture_output=True, text=True)
    if done.returncode != 0:
        return dict(pits=pits, stones=stones, capture_empty=capture_empty,
                    error=done.stderr.strip().splitlines()[-1] if done.stderr else "failed")
    return json.loads(done.stdout)


def value_text(cell: dict) -> str:
    if "error" in cell:
        return "error"
    if cell["finished"]:
        return f"{cell['value']:+d}"
    return f"[{cell['lower']:+d}, {cell['upper']:+d}]"


def openings_text(cell: dict) -> str:
    if "error" in cell:
        return cell["error"]
    parts = []
    for o in cell["openings"]:
        lines = o.get("continuations") or [o]
        for line in lines:
            v = line["value"]
            parts.append(f"{line['line']}:{v:+d}" if v is not None else
                         f"{line['line']}:[{line['lower']:+d},{line['upper']:+d}]")
    return " ".join(parts)


def markdown(cells: list[dict], capture_empty: bool) -> str:
    rule = "captures also from an empty opposite pit (empty-capture)" if capture_empty else \
        "captures only from a non-empty opposite pit (standard)"
    rows = [f"Kalah(m, n), {rule}", "",
            "| m | n | value for the first player | best first moves | each opening | time | nodes | TT MB | table levels |",
            "|---|---|---|---|---|---|---|---|---|"]
    for cell in cells:
        if cell.get("capture_empty") != capture_empty:
            continue
        best = "" if "error" in cell or not cell["finished"] else ", ".join(
            o["line"] for o in cell["openings"] if o["value"] == cell["value"])
        cost = cell.get("checkpoint") or cell       # every run's, when kept in a checkpoint
        runs = f" ({cost['runs']} runs)" if cost.get("runs", 1) > 1 else ""
        rows.append(f"| {cell['pits']} | {cell['stones']} | {value_text(cell)} | {best} | "
                    f"{openings_text(cell)} | {cost.get('seconds', 0):.1f} s{runs} | "
                    f"{cost.get('nodes', 0):,} | {cell.get('table_mb', '')} | "
                    f"{cell.get('table_levels', 0) or '-'} |")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-seconds", type=float, default=600.0)
    parser.add_argument("--tables", help="endgame-table folder (each board uses its tables "
                        "there, if any)")
    parser.add_argument("--table-mb", type=int, help="transposition table MB (default: the "
                        "solver's, by the stones in play)")
    parser.add_argument("--pits", default="1-6")
    parser.add_argument("--stones", default="1-6")
    parser.add_argument("--rules", default="both",
                        choices=["both", "capture_empty", "no-capture-empty"])
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="solve each cell on this Dask cluster")
    parser.add_argument("--checkpoints", metavar="DIR",
                        help="keep each cell's proven bounds here; a rerun goes on from them")
    args = parser.parse_args()
    if args.checkpoints:
        Path(args.checkpoints).mkdir(parents=True, exist_ok=True)
    rules = {"both": (True, False), "capture_empty": (True,), "no-capture-empty": (False,)}
    cells = []
    for capture_empty in rules[args.rules]:
        for pits in span(args.pits):
            for stones in span(args.stones):
                if (pits, stones) == (6, 6):
                    continue
                cell = solve_cell(pits, stones, capture_empty, args.max_seconds, args.tables,
                                  args.table_mb, args.scheduler, args.checkpoints)
                cell.setdefault("pits", pits)
                cell.setdefault("stones", stones)
                cell.setdefault("capture_empty", capture_empty)
                cells.append(cell)
                print(f"Kalah({pits},{stones}) {'empty-capture' if capture_empty else 'standard'}"
                      f": {value_text(cell)}  {cell.get('seconds', 0):.1f} s", file=sys.stderr,
                      flush=True)
    for capture_empty in rules[args.rules]:
        print(markdown(cells, capture_empty) + "\n")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(cells, out, indent=1)


if __name__ == "__main__":
    main()
