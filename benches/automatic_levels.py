"""What levels computed in memory do to an exact search, by the stones in the pits: the rule
``solver.mancala.automatic_levels`` follows when there are no table files.

    python benches/automatic_levels.py [--pits 6 --stones 4] [--in-pits 48 44 40 36]
                                       [--positions 3] [--levels 12 14 16 18] [--seed 0]
                                       [--no-capture-empty]

For each count of stones in the pits, ``--positions`` positions reached by uniformly random
moves from the start of Kalah(pits, stones) (the first position of each game that has exactly
that many; the start itself when it is the whole count), each solved exactly in this process
with no tables, then with each of ``--levels`` computed in memory first (``best_move(exact=True,
memory_tables=L)``, 1 GB transposition table, one thread): the seconds of each, build included,
side by side for one position before the next. One line per position, then per count the
median ratio of each level's time to no tables'. The first solve with levels compiles the
builder if its Numba cache is cold, so a warm-up solve comes first."""
import argparse
import random
import statistics
import time

from solver.games.mancala import api as mancala
from solver.games.mancala import rules as reference


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--stones", type=int, default=4)
    parser.add_argument("--in-pits", type=int, nargs="+", default=[48, 44, 40, 36])
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--levels", type=int, nargs="+", default=[12, 14, 16, 18])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-capture-empty", dest="capture_empty", action="store_false")
    return parser.parse_args(argv)


def position_with(rules: mancala.Rules, in_pits: int, rng: random.Random):
    """The first position of a random game from the start with ``in_pits`` stones in the pits
    (games that skip that count are replayed)."""
    while True:
        pos = reference.new_game(rules)
        while not reference.is_over(pos) and sum(pos.pits) > in_pits:
            pos = reference.apply(pos, rng.choice(reference.legal_actions(pos)))
        if not reference.is_over(pos) and sum(pos.pits) == in_pits:
            return pos


def solve_seconds(pos, levels: int | None) -> tuple[float, int]:
    start = time.perf_counter()
    found = mancala.best_move(pos, exact=True, tables=False if levels is None else None,
                              memory_tables=levels, table_mb=1024)
    return time.perf_counter() - start, found.value


def main(argv=None) -> int:
    args = parse_args(argv)
    rules = mancala.Rules(args.pits, args.stones, args.capture_empty)
    rng = random.Random(args.seed)
    solve_seconds(position_with(rules, min(args.in_pits), rng), min(args.levels))   # warm-up
    for in_pits in args.in_pits:
        ratios = {levels: [] for levels in args.levels}
        for _ in range(args.positions):
            pos = position_with(rules, in_pits, rng)
            plain, value = solve_seconds(pos, None)
            cells = [f"none {plain:6.2f} s"]
            for levels in args.levels:
                seconds, with_levels = solve_seconds(pos, levels)
                if with_levels != value:
                    raise SystemExit(f"{reference.to_text(pos)}: {with_levels} with levels "
                                     f"<= {levels}, {value} without")
                ratios[levels].append(seconds / plain)
                cells.append(f"<={levels} {seconds:6.2f} s")
            print(f"{in_pits} in pits  {reference.to_text(pos):36}  value {value:+3d}  "
                  + "  ".join(cells), flush=True)
        print(f"{in_pits} in pits: median time with levels / without: "
              + "  ".join(f"<={levels} {statistics.median(r):.2f}"
                          for levels, r in ratios.items()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
