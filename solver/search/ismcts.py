"""Tunhell search drivers: budgets, threads, stopping and intervals around the compiled kernels
(``kernels.tunhell_search``: PIMC rounds and ISMCTS trees over the C determinizer).

Both methods estimate, for each legal action of the observer (the seat to move), the observer's
win probability (a shared win counts its share) and expected score margin (his points minus the
best other seat's points at the end), with 95% intervals:

- win probability: Wilson score interval over the samples behind the action (``solver.stats``);
- margin: mean +- 1.96 standard errors (normal approximation, sample standard deviation).

PIMC (determinized Monte Carlo): a round deals one state consistent with the observer's view and
plays every action on it, each followed by a uniformly random playout; every action gets one
sample per round, so its interval is a plain Monte Carlo interval of "this action, then random
play by everyone" (not of optimal play). Budget ``iterations`` counts playouts:
``ceil(iterations / actions)`` rounds. Recommended: the highest win probability (then margin).

ISMCTS (single observer): one tree per thread (root parallelism), the root children's sums
added. Budget ``iterations`` counts iterations (one determinization and one playout each), split
evenly over the trees. An action's samples are the visits of its root child; UCB visits them
adaptively, so its intervals describe the outcomes seen through that child, not independent
samples of a fixed policy. Recommended: the most visited action (then the higher mean).

Stopping. Work runs in batches; after each one the search stops when the recommended action's
win interval lies wholly above every other action's (``separated``; a repeated test, so a stopping
rule rather than a 95% guarantee on the ranking), when the iterations are spent, or at the
deadline (``seconds``). Batch sizes depend only on the work done, unless a deadline cuts them.

Reproducibility: with an ``iterations`` budget, PIMC's answer depends on the seed only (round r
draws from stream r, sums run in round order) whatever the thread count; ISMCTS's on the seed and
the thread count (tree t draws from stream t). A deadline makes either depend on timing.
"""
from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from kernels.tunhell_sample import StateSampler
from kernels.tunhell_search import IsmctsTree, pimc_rounds
from solver.stats import Z95, wilson_interval

PIMC_FIRST_BATCH = 32          # rounds
ISMCTS_FIRST_BATCH = 256       # iterations per tree
BATCH_SECONDS = 0.05           # a timed batch aims at this long, so the deadline is kept closely
EXPLORATION = 0.7              # UCB1 constant for rewards in [0, 1]
RANDOM_ROLLOUTS = -1.0         # epsilon < 0: uniformly random rollouts (the kernels' default)
STOP_SEPARATED, STOP_ITERATIONS, STOP_SECONDS, STOP_SINGLE = (
    "separated", "iterations", "seconds", "single move")


@dataclass
class Totals:
    """Per action: samples, and sums of the observer's result share, margin and margin squared."""

    samples: np.ndarray
    share: np.ndarray
    margin: np.ndarray
    margin_squares: np.ndarray

    @classmethod
    def zeros(cls, width: int) -> Totals:
        return cls(np.zeros(width, np.int64), np.zeros(width), np.zeros(width), np.zeros(width))

    def win_means(self) -> np.ndarray:
        return self.share / np.maximum(self.samples, 1)


@dataclass
class Search:
    """What a driver found: totals per action (in the order given), the index of the recommended
    action, the work done and why it stopped."""

    totals: Totals
    best: int
    iterations: int         # playouts (PIMC) or tree iterations (ISMCTS)
    seconds: float
    stopped: str
    nodes: int = 0          # ISMCTS: nodes in all trees


class Budget:
    """A deadline (or none) and the batch schedule (module docstring); the caller keeps count
    of the units (PIMC rounds, ISMCTS iterations per tree) against its own limit."""

    def __init__(self, seconds: float | None, first_batch: int):
        self.first_batch = first_batch
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds

    def next_batch(self, done: int, limit: int | None) -> int:
        """Units of the next batch: the first batch, then half the units done; within ``limit``
        and, when timed, what the measured speed fits into BATCH_SECONDS and the time left."""
        batch = max(self.first_batch, done // 2)
        if limit is not None:
            batch = min(batch, limit - done)
        if self.deadline is not None and done:
            now = time.perf_counter()
            rate = done / max(now - self.start, 1e-9)
            batch = min(batch, max(1, int(rate * min(BATCH_SECONDS, self.deadline - now))))
        return max(batch, 1)

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


# --- PIMC ----------------------------------------------------------------------------------------

def pimc(sampler: StateSampler, actions: list[int], seat: int, *, iterations: int | None,
         seconds: float | None, threads: int = 1, seed: int = 0,
         stop_when_separated: bool = True, epsilon: float = RANDOM_ROLLOUTS) -> Search:
    """Determinized Monte Carlo over ``actions`` (codes legal for ``seat`` in every deal);
    ``epsilon``: the rollouts (RANDOM_ROLLOUTS, or the heuristic policy's epsilon)."""
    codes = np.asarray(actions, np.uint32)
    width = len(codes)
    rounds_limit = None if iterations is None else max(1, math.ceil(iterations / width))
    budget = Budget(seconds, PIMC_FIRST_BATCH)
    totals, done = Totals.zeros(width), 0
    with ThreadPoolExecutor(threads) as pool:
        while True:
            batch = budget.next_batch(done, rounds_limit)
            _add_rounds(totals, _pimc_batch(pool, sampler, codes, seat, seed, done, batch,
                                            threads, epsilon))
            done += batch
            stopped = _stop_reason(totals, _pimc_best(totals), done >= (rounds_limit or math.inf),
                                   budget, stop_when_separated)
            if stopped:
                break
    return Search(totals, _pimc_best(totals), done * width, budget.elapsed(), stopped)


def _pimc_batch(pool, sampler, codes, seat, seed, first, batch, threads, epsilon):
    """Rounds ``first .. first + batch - 1`` in contiguous row blocks over the threads; returns
    the (shares, margins) arrays, rows in round order."""
    shares = np.empty((batch, len(codes)))
    margins = np.empty((batch, len(codes)))
    bounds = np.linspace(0, batch, min(threads, batch) + 1).astype(int)
    blocks = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]

    def run(block):
        a, b = block
        pimc_rounds(sampler, codes, seat, seed % (1 << 64), first + a, shares[a:b], margins[a:b],
                    epsilon)
    list(pool.map(run, blocks))
    return shares, margins


def _add_rounds(totals: Totals, batch) -> None:
    shares, margins = batch
    totals.samples += len(shares)
    totals.share += shares.sum(axis=0)
    totals.margin += margins.sum(axis=0)
    totals.margin_squares += (margins * margins).sum(axis=0)


def _pimc_best(totals: Totals) -> int:
    """Highest win probability, then highest mean margin, then the first legal."""
    means = totals.win_means()
    margins = totals.margin / np.maximum(totals.samples, 1)
    return int(np.lexsort((np.arange(len(means)), -margins, -means))[0])


# --- ISMCTS --------------------------------------------------------------------------------------

def ismcts(sampler: StateSampler, actions: list[int], seat: int, *, iterations: int | None,
           seconds: float | None, threads: int = 1, seed: int = 0,
           stop_when_separated: bool = True, exploration: float = EXPLORATION,
           epsilon: float = RANDOM_ROLLOUTS) -> Search:
    """Single-observer ISMCTS over ``actions`` (the root's legal codes), one tree per thread;
    ``epsilon``: the rollouts (RANDOM_ROLLOUTS, or the heuristic policy's epsilon)."""
    trees = [IsmctsTree(sampler, seed % (1 << 64), t, exploration, epsilon=epsilon)
             for t in range(threads)]
    shares = [_tree_share(iterations, threads, t) for t in range(threads)]
    budget = Budget(seconds, ISMCTS_FIRST_BATCH)
    done = 0              # iterations per tree so far (every tree runs the same batches)
    with ThreadPoolExecutor(threads) as pool:
        while True:
            limit = None if iterations is None else max(shares)
            batch = budget.next_batch(done, limit)
            list(pool.map(lambda t: trees[t].run(_tree_batch(shares[t], done, batch)),
                          range(threads)))
            done += batch
            totals = _root_totals(trees, actions)
            best = _ismcts_best(totals)
            stopped = _stop_reason(totals, best, limit is not None and done >= limit, budget,
                                   stop_when_separated)
            if stopped:
                break
    return Search(totals, best, sum(t.iterations for t in trees), budget.elapsed(), stopped,
                  nodes=sum(t.nodes for t in trees))


def _tree_share(iterations: int | None, threads: int, tree: int) -> int | None:
    """Tree ``tree``'s part of the iterations: an even split, the first trees taking the rest."""
    if iterations is None:
        return None
    return iterations // threads + (1 if tree < iterations % threads else 0)


def _tree_batch(share: int | None, done: int, batch: int) -> int:
    """What a tree with ``share`` iterations (None: no limit) runs of a batch after ``done``."""
    return batch if share is None else max(0, min(batch, share - done))


def _root_totals(trees: list[IsmctsTree], actions: list[int]) -> Totals:
    """The root children's sums over all trees, in the order of ``actions``."""
    index = {code: i for i, code in enumerate(actions)}
    totals = Totals.zeros(len(actions))
    for tree in trees:
        for row in tree.root_children():
            i = index[int(row["action"])]
            totals.samples[i] += row["visits"]
            totals.share[i] += row["share"]
            totals.margin[i] += row["margin"]
            totals.margin_squares[i] += row["margin_squares"]
    return totals


def _ismcts_best(totals: Totals) -> int:
    """Most visits, then the highest mean share, then the first legal."""
    means = totals.win_means()
    return int(np.lexsort((np.arange(len(means)), -means, -totals.samples))[0])


# --- both ----------------------------------------------------------------------------------------

def _stop_reason(totals: Totals, best: int, spent: bool, budget: Budget,
                 stop_when_separated: bool) -> str | None:
    if len(totals.samples) == 1:
        return STOP_SINGLE
    if stop_when_separated and separated(totals, best):
        return STOP_SEPARATED
    if spent:
        return STOP_ITERATIONS
    if budget.out_of_time():
        return STOP_SECONDS
    return None


def separated(totals: Totals, best: int) -> bool:
    """The recommended action's win interval lies wholly above every other action's."""
    low = win_interval(totals, best)[0]
    return all(win_interval(totals, i)[1] < low for i in range(len(totals.samples)) if i != best)


def win_interval(totals: Totals, i: int) -> tuple[float, float]:
    n = int(totals.samples[i])
    return wilson_interval(float(totals.share[i] / n), n) if n else (0.0, 1.0)


def margin_interval(totals: Totals, i: int) -> tuple[float, float] | None:
    """Mean margin +- 1.96 standard errors; None with fewer than two samples."""
    n = int(totals.samples[i])
    if n < 2:
        return None
    mean = totals.margin[i] / n
    variance = max(totals.margin_squares[i] - n * mean * mean, 0.0) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return float(mean - half), float(mean + half)
