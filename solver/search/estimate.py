"""Monte Carlo move estimates: each root move's mean reward for one seat with a 95% interval.
Game-agnostic: it drives ``kernels.estimate`` with a game's kernel functions (the contract is in
that module's docstring).

The plan. Rounds run in batches; a round determinizes the view once and plays every move on that
deal, then rolls out once per move. After each batch every move's interval is recomputed (Wilson
score interval, ``solver.stats``) and the search stops when the best move's interval lies above
all the others' (separated), when the round budget (``samples``) is spent, or at the deadline
(``seconds``). Batches start at FIRST_BATCH rounds and grow by half of the rounds done, so the
separation test runs about log1.5(rounds) times; the test is repeated, so "separated" is a
stopping rule, not a 95% guarantee on the ranking.

Reproducibility: round r's randomness depends only on (seed, r) and batch sizes only on the rounds
done, so with a round budget the answer depends on the seed alone, whatever the thread count. A
deadline cuts batches by measured speed, so a timed answer is not reproducible.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from kernels import estimate as k
from solver.stats import wilson_interval

FIRST_BATCH = 32
BATCH_SECONDS = 0.05       # a timed batch aims at this long, so the deadline is kept closely
STOP_SEPARATED, STOP_SAMPLES, STOP_SECONDS, STOP_SINGLE = (
    "separated", "samples", "seconds", "single move")


class EstimateGame(NamedTuple):
    """A game's compiled functions (signatures: ``kernels.estimate.game_signatures``)."""

    state_type: object
    determinize: Callable
    play: Callable
    rollout: Callable


@dataclass
class MoveEstimate:
    """One root move: its rounds, the seat's mean reward and the reward's 95% interval."""

    move: int
    samples: int
    mean: float
    low: float
    high: float


@dataclass
class Estimate:
    """Every root move's estimate (in the order given), the best move (highest mean; the first
    of equals), the rounds run (each gives every move one sample) and why the search stopped."""

    moves: list[MoveEstimate]
    best: int
    samples: int
    seconds: float
    threads: int
    seed: int
    stopped: str

    @property
    def playouts(self) -> int:
        return self.samples * len(self.moves)

    @property
    def samples_per_second(self) -> float:
        return self.samples / self.seconds if self.seconds > 0 else 0.0


def estimate(game: EstimateGame, view, moves: list[int], seat: int, *,
             samples: int | None = None, seconds: float | None = None, threads: int = 1,
             seed: int = 0, stop_when_separated: bool = True) -> Estimate:
    """Estimate ``moves`` (legal in ``view``) for ``seat``: at most ``samples`` rounds and/or
    ``seconds`` (whichever ends first; at least one of them). The first batch always runs."""
    _check_budget(samples, seconds, threads)
    if not moves:
        raise ValueError("no move to estimate")
    run = _bound_kernel(game, view, moves, seat, seed)
    sums = np.zeros(len(moves))
    done, stopped = 0, STOP_SAMPLES
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    with ThreadPoolExecutor(threads) as pool:
        while True:
            batch = _next_batch(done, samples, deadline, start)
            sums += _run_batch(run, pool, done, batch, len(moves), threads)
            done += batch
            stopped = _stop_reason(sums, done, samples, deadline, stop_when_separated)
            if stopped:
                break
    elapsed = time.perf_counter() - start
    estimates = [_move_estimate(m, s, done) for m, s in zip(moves, sums)]
    return Estimate(moves=estimates, best=moves[_best_index(sums)], samples=done,
                    seconds=elapsed, threads=threads, seed=seed, stopped=stopped)


def _check_budget(samples, seconds, threads) -> None:
    if samples is None and seconds is None:
        raise ValueError("give a budget: samples and/or seconds")
    if samples is not None and samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")


def _bound_kernel(game: EstimateGame, view, moves, seat, seed):
    """``run(first_round, rewards) -> rounds``: the compiled kernel with the game bound."""
    kernel = k.rounds_kernel(game.state_type)
    move_array = np.asarray(moves, np.int64)
    seed_word = np.uint64(seed % (1 << 64))

    def run(first_round: int, rewards: np.ndarray) -> int:
        return kernel(view, move_array, seat, seed_word, first_round, rewards,
                      game.determinize, game.play, game.rollout)
    return run


def _next_batch(done: int, samples: int | None, deadline: float | None, start: float) -> int:
    """Rounds of the next batch: FIRST_BATCH, then half the rounds done; within the budget and,
    when timed, what the measured speed fits into BATCH_SECONDS and the time left."""
    batch = max(FIRST_BATCH, done // 2)
    if samples is not None:
        batch = min(batch, samples - done)
    if deadline is not None and done:
        now = time.perf_counter()
        rate = done / max(now - start, 1e-9)
        batch = min(batch, max(1, int(rate * min(BATCH_SECONDS, deadline - now))))
    return batch


def _run_batch(run, pool: ThreadPoolExecutor, first: int, batch: int, width: int,
               threads: int) -> np.ndarray:
    """Play rounds ``first .. first + batch - 1``, split in contiguous row blocks over the
    threads; the per-move sums of the rewards (summed in row order, so any thread count gives
    the same floating-point sums)."""
    rewards = np.empty((batch, width))
    bounds = np.linspace(0, batch, min(threads, batch) + 1).astype(int)
    blocks = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    if len(blocks) == 1:
        run(first, rewards)
    else:
        list(pool.map(lambda ab: run(first + ab[0], rewards[ab[0]:ab[1]]), blocks))
    return rewards.sum(axis=0)


def _stop_reason(sums, done, samples, deadline, stop_when_separated) -> str | None:
    if len(sums) == 1:
        return STOP_SINGLE
    if stop_when_separated and separated(sums / done, done):
        return STOP_SEPARATED
    if samples is not None and done >= samples:
        return STOP_SAMPLES
    if deadline is not None and time.perf_counter() >= deadline:
        return STOP_SECONDS
    return None


def separated(means: np.ndarray, n: int) -> bool:
    """The best mean's interval lies wholly above every other move's interval."""
    best = _best_index(means)
    low = wilson_interval(float(means[best]), n)[0]
    return all(wilson_interval(float(m), n)[1] < low for i, m in enumerate(means) if i != best)


def _best_index(values: np.ndarray) -> int:
    return int(np.argmax(values))


def _move_estimate(move: int, total: float, n: int) -> MoveEstimate:
    mean = float(total / n)
    low, high = wilson_interval(mean, n)
    return MoveEstimate(move=int(move), samples=n, mean=mean, low=low, high=high)
