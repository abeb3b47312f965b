"""Proving a whole Kalah game, opening by opening, with bounds at every moment.

A long proof speaks and can be stopped. Every opening (and, after an opening that earns an extra
turn, every continuation: "3-1", "3-2", ... as Rawlings' tables write them) is one *task*: an
exact MTD(f) proof of the position it leads to, run in slices of a node budget that doubles
each round (``AlphaBeta.prove_within``; the transposition table keeps what earlier slices
proved). After each slice the task's bounds tighten; an opening's bounds are the best of its
continuations', the root's the best of its openings'. A budget (``max_seconds``,
``max_nodes``) or Ctrl-C ends the proof between slices with the bounds proven so far.

Values are final store differences for the player to move at the root (A from the start),
current stores included. A best-move question (``best --exact`` without ``--all-moves``) is the
same proof of one task, the root position itself (``openings=False``).
"""
from __future__ import annotations

import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable

from kernels.contract import EXTRA_TURN, GAME_OVER
from kernels.mancala_layout import pits_per_side
from solver.errors import InputError
from solver.games.mancala.rules import SIDE_NAMES, Rules
from solver.search.alphabeta import rounded_seconds

FIRST_SLICE = 1_000_000     # nodes of a task's first slice; each round doubles it
LAST_SLICE = 16_000_000   # a slice is one compiled call, run in a thread that can be stopped
POLL_SECONDS = 0.05       # how often the waiting thread looks at Ctrl-C and the clock
SPLIT_AFTER = 2.0         # seconds a cluster task runs beside an idle worker before it is split
SPLIT_DEPTH = 8           # plies below the root a cluster split may reach
ASK_WORKERS_EVERY = 1.0   # seconds between the client's questions of which tasks run


@dataclass
class Line:
    """An opening (``name`` "3"), or a continuation after an extra turn ("3-1"): the bounds on
    its value for A and, once proven, the optimal next move and who makes it. ``split``: on a
    cluster, the lines of the position's moves, proven as tasks of their own when the line's
    task ran long beside an idle worker ("3-9", "3-9-2", ...); ``chooser`` picks among
    continuations or split lines (0 = A)."""

    name: str
    move: int          # the bin of the line's last sowing
    lower: int
    upper: int
    reply: int | None = None
    reply_by: str | None = None
    continuations: list["Line"] = field(default_factory=list)
    split: list["Line"] = field(default_factory=list)
    chooser: int | None = None

    @property
    def value(self) -> int | None:
        return self.lower if self.lower == self.upper else None

    def to_dict(self) -> dict:
        out = dict(move=self.move, line=self.name, value=self.value, lower=self.lower,
                   upper=self.upper, reply=self.reply, reply_by=self.reply_by)
        if self.continuations:
            out["continuations"] = [c.to_dict() for c in self.continuations]
        if self.split:
            out["split"] = [c.to_dict() for c in self.split]
        return out


@dataclass
class Proof:
    """A whole game's proof so far: the root's bounds for its mover (A from the start), each
    opening's, the first move once proven, and why it stopped (None: finished). ``root``: the
    root's own line when the openings were not split (then ``openings`` is empty)."""

    rules: Rules
    lower: int
    upper: int
    openings: list[Line]
    nodes: int = 0
    expanded: int = 0      # of ``nodes``, the positions whose moves were generated
    seconds: float = 0.0
    table_levels: int = 0
    table_build_seconds: float | None = None   # levels computed in memory first (None: none)
    table_mb: int = 0
    stopped: str | None = None
    root: Line | None = None
    side: int = 0          # who moves at the root (0 = A)
    tasks: int = 0         # exact proofs run (on a cluster, those split from others included)
    checkpoint: dict | None = None   # the checkpoint file's totals over every run, if one is kept

    @property
    def finished(self) -> bool:
        """The root, every opening and every continuation are proven (split lines need not
        be: they only serve their line)."""
        return self.lower == self.upper and all(
            line.value is not None for o in self.openings for line in [o] + o.continuations)

    @property
    def value(self) -> int | None:
        return self.lower if self.finished else None

    @property
    def move(self) -> int | None:
        """An optimal first move (the first opening worth the root's value), once proven."""
        if not self.finished:
            return None
        if self.root is not None:
            return self.root.reply
        return next(o.move for o in self.openings if o.value == self.value)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict:
        return dict(pits=self.rules.pits, stones=self.rules.stones,
                    capture_empty=self.rules.capture_empty, value=self.value, lower=self.lower,
                    upper=self.upper, move=self.move, finished=self.finished,
                    stopped=self.stopped, openings=[o.to_dict() for o in self.openings],
                    nodes=self.nodes, expanded=self.expanded, seconds=round(self.seconds, 3),
                    nodes_per_second=round(self.nodes_per_second),
                    table_levels=self.table_levels,
                    table_build_seconds=rounded_seconds(self.table_build_seconds),
                    table_mb=self.table_mb, tasks=self.tasks,
                    checkpoint=self.checkpoint)


@dataclass
class _Task:
    """One position to prove: ``sign`` turns its mover's value into A's."""

    line: Line
    state: tuple
    sign: int
    side: int        # who moves in ``state`` (0 = A)
    pits: int
    guess: int | None = None    # MTD(f)'s next guess (mover's view); None: not yet searched


def prove_game(engine, state, rules: Rules, *, max_seconds: float | None = None,
               max_nodes: int | None = None,
               progress: Callable[[Proof], None] | None = None, side: int = 0,
               openings: bool = True, stop: Callable[[], bool] | None = None,
               checkpoint=None) -> Proof:
    """Prove the position ``state`` with ``engine`` (an ``AlphaBeta``): every opening's value
    (module docstring), or with ``openings=False`` only the root's value and an optimal move.
    ``side``: who moves in ``state`` (0 = A; it names the moves' bins). Values are for that
    side. Ctrl-C, ``max_seconds`` or ``max_nodes`` end it early with the bounds proven so far
    (``Proof.stopped`` says which); so does ``stop()`` turning true (a request from elsewhere,
    such as a cluster's client: stopped "interrupted"). ``checkpoint`` (a
    :class:`~solver.games.mancala.checkpoint.Checkpoint`, with ``openings`` only): start from
    the bounds it holds and keep every change in it."""
    start, nodes_before, expanded_before = time.perf_counter(), engine.nodes, engine.expanded
    banked, swing = (int(x) for x in engine.game.bounds(state))
    proof = Proof(rules, banked - swing, banked + swing, [], side=side)
    if openings:
        tasks = _tasks(engine, state, "", 1, side, proof.openings, depth=2)
        tasks = _resume(checkpoint, proof.openings, tasks)
    else:
        proof.root = Line("", -1, proof.lower, proof.upper)
        tasks = [_Task(proof.root, state, 1, side, pits_per_side(state[0]))]
    proof.tasks = len(tasks)
    _combine(proof)
    progress = _recording(checkpoint, progress)

    def spent() -> None:
        proof.nodes, proof.seconds = engine.nodes - nodes_before, time.perf_counter() - start
        proof.expanded = engine.expanded - expanded_before

    def interrupted() -> bool:
        return ctrl_c.pressed or (stop is not None and stop())

    def should_stop() -> bool:
        return interrupted() or (max_seconds is not None and
                                 time.perf_counter() - start >= max_seconds)

    with _CtrlC() as ctrl_c:
        try:
            _run(engine, tasks, proof, interrupted, spent, max_seconds, max_nodes, progress,
                 should_stop)
        except KeyboardInterrupt:           # a second Ctrl-C, or one outside the main thread
            proof.stopped = "interrupted"
        finally:
            spent()
            _finish(checkpoint, proof)
    return proof


def _resume(checkpoint, lines: list[Line], tasks: list[_Task]) -> list[_Task]:
    """The tasks still to run once ``lines`` hold what ``checkpoint`` recorded: a proven line's
    task is dropped, the others start from the bounds recorded."""
    if checkpoint is None:
        return tasks
    for line in lines:
        checkpoint.apply(line)
    return [task for task in tasks if task.line.value is None]


def _recording(checkpoint, progress):
    """``progress``, after the checkpoint (if any) has kept the proof's new bounds."""
    if checkpoint is None:
        return progress

    def record(proof: Proof) -> None:
        checkpoint.record(proof)
        if progress is not None:
            progress(proof)
    return record


def _finish(checkpoint, proof: Proof) -> None:
    if checkpoint is not None:
        _combine(proof)
        checkpoint.finish(proof)
        proof.checkpoint = checkpoint.totals()


class _CtrlC:
    """While a proof runs, the first Ctrl-C only raises a flag (an exception raised inside
    Numba's dispatch would not unwind cleanly): the thread waiting on the running slice sees it
    and stops the slice (:func:`_stoppable`); a second Ctrl-C raises KeyboardInterrupt. Outside
    the main thread, and where Ctrl-C is ignored (a command started with ``&`` by a script),
    signals stay as they are."""

    def __enter__(self):
        self.pressed, self.previous = False, None
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            self.previous = signal.signal(signal.SIGINT, self._press)
        return self

    def _press(self, signum, frame):
        self.pressed = True
        signal.signal(signal.SIGINT, signal.default_int_handler)

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
        return False


def _run(engine, tasks, proof, interrupted, spent, max_seconds, max_nodes, progress,
         should_stop) -> None:
    slice_nodes = FIRST_SLICE
    while tasks:
        for task in list(tasks):
            if interrupted():
                proof.stopped = "interrupted"
                return
            if _out_of_budget(proof, max_seconds, max_nodes):
                proof.stopped = "max-seconds" if max_seconds is not None and \
                    proof.seconds >= max_seconds else "max-nodes"
                return
            if max_nodes is not None:
                slice_nodes = min(slice_nodes, max(1, max_nodes - proof.nodes))
            if task.guess is None:          # a shallow search's value, inside the bounds known
                low, high = sorted((task.sign * task.line.lower, task.sign * task.line.upper))
                task.guess = min(max(engine.first_guess(task.state), low), high)
            low, high = _stoppable(engine, should_stop, engine.prove_within, task.state,
                                   slice_nodes, task.guess)
            # MTD(f) goes on from its guess, moved into the bounds (the bounds' midpoint
            # instead cost 16% more nodes on Kalah(5,4))
            task.guess = min(max(task.guess, low), high)
            _narrow(task, low, high)
            if task.line.value is not None:
                _reply(engine, task)
                tasks.remove(task)
            _combine(proof)
            spent()
            if progress is not None:
                progress(proof)
        slice_nodes = min(2 * slice_nodes, LAST_SLICE)


def _stoppable(engine, should_stop, call, *args):
    """``call(*args)``, one compiled slice, in a thread while this one polls ``should_stop``:
    once it is true the engine aborts the slice at its next node (the kernels release the GIL
    and read their node limit at every node) with the bounds proven so far. So Ctrl-C and
    ``max_seconds`` act within a poll, not at the end of a slice of up to LAST_SLICE nodes."""
    box = {}

    def run():
        try:
            box["result"] = call(*args)
        except BaseException as error:      # handed to the waiting thread
            box["error"] = error

    worker = threading.Thread(target=run, name="proof-slice", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(POLL_SECONDS)
            if worker.is_alive() and should_stop():
                engine.stop()               # again at each poll: the slice may not have begun
    except BaseException:                   # a second Ctrl-C: stop the slice, then unwind
        engine.stop()
        worker.join()
        raise
    if "error" in box:
        raise box["error"]
    return box["result"]


def _tasks(engine, state, prefix: str, sign: int, side: int, lines: list[Line],
           depth: int) -> list[_Task]:
    """A line per legal move of ``state`` into ``lines``; a move that keeps the turn is split
    into its continuations while ``depth`` allows. Finished games are valued at once."""
    tasks, pits = [], pits_per_side(state[0])
    for lane in engine.legal_moves(state):
        child, info = engine.game.play(state, lane)
        move = lane + 1 + side * pits
        name = f"{prefix}{move}"
        again = bool(info & EXTRA_TURN)
        child_side = side if again else 1 - side
        child_sign = sign if again else -sign
        if info & GAME_OVER:
            value = sign * int(engine.game.score(child)) * (1 if again else -1)
            lines.append(Line(name, move, value, value))
            continue
        banked, swing = (int(x) for x in engine.game.bounds(child))
        low, high = sorted((child_sign * (banked - swing), child_sign * (banked + swing)))
        line = Line(name, move, low, high)
        lines.append(line)
        if again and depth > 1:
            line.chooser = child_side
            tasks += _tasks(engine, child, name + "-", child_sign, child_side,
                            line.continuations, depth - 1)
        else:
            tasks.append(_Task(line, child, child_sign, child_side, pits))
    return tasks


def _narrow(task: _Task, low: int, high: int) -> None:
    a, b = sorted((task.sign * low, task.sign * high))
    task.line.lower, task.line.upper = max(task.line.lower, a), min(task.line.upper, b)


def _reply(engine, task: _Task) -> None:
    value = task.line.value * task.sign
    _, move = engine.prove(task.state, value)
    if move is not None:
        task.line.reply = move + 1 + task.side * task.pits
        task.line.reply_by = SIDE_NAMES[task.side]


def _combine(proof: Proof) -> None:
    """Bounds flow up: a line with continuations (or split lines) is worth the best of them for
    its chooser, the root its best opening (or its own line's bounds, not split). A line keeps
    the bounds its own task proved too: both hold, so the line holds their intersection."""
    if proof.root is not None:
        proof.lower, proof.upper = proof.root.lower, proof.root.upper
        return
    for line in proof.openings:
        _combine_line(line, proof.side)
    proof.lower = max(o.lower for o in proof.openings)
    proof.upper = max(o.upper for o in proof.openings)


def _combine_line(line: Line, root_side: int) -> None:
    children = line.continuations or line.split
    if not children:
        return
    for child in children:
        _combine_line(child, root_side)
    best = max if line.chooser == root_side else min
    line.lower = max(line.lower, best(c.lower for c in children))
    line.upper = min(line.upper, best(c.upper for c in children))
    if line.value is not None and line.reply is None:
        chosen = next((c for c in children if c.value == line.value), None)
        if chosen is not None:
            line.reply, line.reply_by = chosen.move, SIDE_NAMES[line.chooser]


def _out_of_budget(proof: Proof, max_seconds, max_nodes) -> bool:
    return (max_seconds is not None and proof.seconds >= max_seconds) or \
        (max_nodes is not None and proof.nodes >= max_nodes)


# --- on a Dask cluster ----------------------------------------------------------------------------

def prove_game_on_cluster(client, rules: Rules, *, tables=None, table_mb: int = 256,
                          max_seconds: float | None = None,
                          progress: Callable[[Proof], None] | None = None,
                          checkpoint=None) -> Proof:
    """The same proof as :func:`prove_game`, split near the root: each opening (each
    continuation after an extra turn) is an independent exact proof, one Dask task, on workers
    that share the endgame-table folder ``tables`` (an absolute path; None: none). Where the
    split is uneven (a task has run SPLIT_AFTER seconds while a worker is idle) its position is
    split again: each of its moves becomes a task too, racing the task itself; whichever
    settles the line first wins and the rest are stopped. The client
    gathers the values as they come and combines them; the values equal a single-process
    proof's. ``max_seconds`` (a deadline each task keeps by the wall clock) or Ctrl-C (a Dask
    ``Event`` the tasks watch) end every task with the bounds it proved by then; a second Ctrl-C
    cancels the tasks and keeps what has come back. A running task reports each tighter
    bound it proves (``prove_line``'s ``report``), so the client's bounds, its ``progress``
    and its checkpoint move before the task ends. ``checkpoint`` as in :func:`prove_game`
    (a line split again on a rerun starts from what its split lines proved before)."""
    from distributed import Event

    from solver.games.mancala import api
    from solver.search.alphabeta import AlphaBeta
    start = time.perf_counter()
    local = AlphaBeta(api.kernel_game(), 1)          # only to list moves and bounds
    state = api.to_packed(api.new_game(rules))
    banked, swing = (int(x) for x in local.game.bounds(state))
    proof = Proof(rules, banked - swing, banked + swing, [], table_mb=table_mb)
    deadline = None if max_seconds is None else time.time() + max_seconds
    stop_all = Event(f"solver-proof-stop-{uuid.uuid4().hex}", client)
    reports = _Reports(client)

    def submit(task: _Task, parent: _Job | None) -> _Job:
        job = _Job(task, Event(f"solver-task-stop-{uuid.uuid4().hex}", client), parent,
                   0 if parent is None else parent.depth + 1)
        proof.tasks += 1
        job.future = client.submit(prove_line, rules.pits, rules.stones, rules.capture_empty,
                                   _bins(task.line.name), tables, table_mb, deadline,
                                   [stop_all.name, job.stop.name], reports.address(job),
                                   pure=False)
        return job

    def split_job(job: _Job) -> None:
        """Split ``job``'s position into its moves' tasks, and again below wherever an earlier
        run's checkpoint shows a split (its proven lines are not searched again)."""
        tasks = _split(local, job)
        for task in _resume(checkpoint, job.task.line.split, tasks):
            child = submit(task, job)
            job.children.append(child)
            pending[child.future] = child
            if checkpoint is not None and checkpoint.was_split(task.line.name) and \
                    child.depth < SPLIT_DEPTH:
                split_job(child)

    pending = {}
    tasks = _tasks(local, state, "", 1, 0, proof.openings, depth=2)
    for task in _resume(checkpoint, proof.openings, tasks):
        job = submit(task, None)
        pending[job.future] = job
        if checkpoint is not None and checkpoint.was_split(task.line.name):
            split_job(job)
    _combine(proof)
    progress = _recording(checkpoint, progress)
    workers = _Workers(client)
    with _CtrlC() as ctrl_c:
        try:
            while pending and not proof.finished:
                if ctrl_c.pressed and not stop_all.is_set():
                    stop_all.set()
                finished = [future for future in pending if future.done()]
                for future in finished:
                    job = pending.pop(future, None)
                    if job is None:             # dropped with the line it was split from
                        continue
                    _record(proof, job.task, _answer(future, client, pending))
                    if job.task.line.value is not None:       # proven by its own task
                        _drop(job, pending, client)
                reported = reports.apply()
                if finished or reported:
                    _combine(proof)
                    _stop_settled(pending)
                late = ctrl_c.pressed or (deadline is not None and time.time() >= deadline)
                split = None if late or len(pending) >= workers.slots(pending) else \
                    _to_split(pending, SPLIT_AFTER)
                if split is not None:
                    split_job(split)
                    _combine(proof)
                if finished or reported or split is not None:
                    proof.seconds = time.perf_counter() - start
                    if progress is not None:
                        progress(proof)
                else:
                    time.sleep(POLL_SECONDS)
        except KeyboardInterrupt:               # a second Ctrl-C
            client.cancel(list(pending))
    reports.close()
    if pending:                                  # settled without them (or a second Ctrl-C)
        for job in pending.values():
            job.stop.set()
        client.cancel(list(pending))
    if not proof.finished:
        proof.stopped = "interrupted" if ctrl_c.pressed else "max-seconds"
    proof.seconds = time.perf_counter() - start
    _finish(checkpoint, proof)
    return proof


@dataclass
class _Job:
    """A cluster task: the proof of ``task``'s position, its own stop ``Event``, the job it was
    split from and, once split, the jobs of its position's moves."""

    task: _Task
    stop: object
    parent: "_Job | None"
    depth: int
    future: object = None
    started: float | None = None       # when the client first saw a worker run it
    stopped: bool = False
    children: list["_Job"] = field(default_factory=list)

    def settled(self) -> bool:
        """Whether this line or a line it serves is proven: then its work is not needed."""
        job = self
        while job is not None:
            if job.task.line.value is not None:
                return True
            job = job.parent
        return False


class _Reports:
    """The bounds running tasks report before they end (Dask events, :func:`prove_line`'s
    ``report``), gathered by the client's event thread and applied by :meth:`apply` in the
    client's loop, so a checkpoint keeps them even if the run never sees the tasks end."""

    def __init__(self, client):
        self.client, self.topic = client, f"solver-proof-bounds-{uuid.uuid4().hex}"
        self.jobs: dict[str, _Job] = {}
        self.inbox: list[dict] = []          # appended by the client's event thread
        client.subscribe_topic(self.topic, lambda event: self.inbox.append(event[1]))

    def address(self, job: _Job) -> tuple[str, str]:
        self.jobs[job.stop.name] = job
        return self.topic, job.stop.name

    def apply(self) -> bool:
        """Narrow each reporting job's line to its bounds; whether any arrived."""
        count = len(self.inbox)
        for message in self.inbox[:count]:
            job = self.jobs.get(message["job"])
            if job is not None:                # bounds proven are facts, whenever they arrive
                _narrow(job.task, message["lower"], message["upper"])
        del self.inbox[:count]
        return count > 0

    def close(self) -> None:
        self.client.unsubscribe_topic(self.topic)


class _Workers:
    """How many tasks the cluster runs at once (its workers' threads) and which jobs run now
    (their start times), asked of the scheduler every ASK_WORKERS_EVERY seconds."""

    def __init__(self, client):
        self.client, self.at, self.count = client, -1.0, 1

    def slots(self, pending: dict) -> int:
        if time.monotonic() - self.at >= ASK_WORKERS_EVERY:
            self.at = time.monotonic()
            self.count = max(1, sum(self.client.nthreads().values()))
            running = {key for keys in self.client.processing().values() for key in keys}
            for future, job in pending.items():
                if job.started is None and future.key in running:
                    job.started = time.perf_counter()
        return self.count


def _answer(future, client, pending: dict) -> dict:
    """A finished task's result; a task that failed on its worker ends the proof with one line,
    the other tasks cancelled (``tables.distributed.task_result``). What the proof had proven is
    in its checkpoint, if it has one."""
    from tables.distributed import task_result
    from tables.errors import TableError
    try:
        return task_result(future, client, list(pending), "a proof task",
                           passes=(InputError, TableError))
    except TableError as error:
        raise InputError(str(error)) from None


def _bins(name: str) -> list[int]:
    return [int(b) for b in name.split("-")]


def _to_split(pending: dict, wait: float) -> _Job | None:
    """The longest-running task not yet split, once it has run ``wait`` seconds."""
    now = time.perf_counter()
    ready = [job for job in pending.values() if not job.children and not job.settled()
             and job.depth < SPLIT_DEPTH and job.started is not None
             and now - job.started >= wait]
    return min(ready, key=lambda job: job.started, default=None)


def _split(local, job: _Job) -> list[_Task]:
    """The tasks of the moves of ``job``'s position; their lines become the line's split."""
    task = job.task
    task.line.chooser = task.side
    return _tasks(local, task.state, task.line.name + "-", task.sign, task.side,
                  task.line.split, depth=1)


def _drop(job: _Job, pending: dict, client) -> None:
    """``job`` proved its line: the tasks split from it are not needed; their lines go."""
    for child in job.children:
        _drop(child, pending, client)
        if child.future in pending:
            del pending[child.future]
            child.stop.set()
            client.cancel([child.future])
    job.children.clear()
    job.task.line.split.clear()


def _stop_settled(pending: dict) -> None:
    """Tell the tasks whose lines (or the lines they serve) are proven to stop."""
    for job in pending.values():
        if job.settled() and not job.stopped:
            job.stop.set()
            job.stopped = True


def _record(proof: Proof, task: _Task, result: dict) -> None:
    """A task's answer into its line (turned into A's view) and the totals."""
    _narrow(task, result["lower"], result["upper"])
    if result["reply"] is not None:
        task.line.reply = result["reply"]
        task.line.reply_by = SIDE_NAMES[task.side]
    proof.nodes += result["nodes"]
    proof.expanded += result["expanded"]
    proof.table_levels = max(proof.table_levels, result["levels"])


def prove_line(pits: int, stones: int, capture_empty: bool, line: list[int], tables,
               table_mb: int, deadline: float | None = None,
               stop_events: list[str] | None = None,
               report: tuple[str, str] | None = None) -> dict:
    """A worker's task: play the bins of ``line`` from the start, prove the position reached
    with its own transposition table of ``table_mb`` MB and the endgame tables of the shared
    folder ``tables``, until the proof ends, the wall clock passes ``deadline`` (``time.time()``)
    or one of the Dask events named in ``stop_events`` is set. Returns the bounds proven for the
    position's mover (equal when finished), its optimal move's bin once proven, nodes and
    table levels. ``report`` = (topic, job): while it runs, each tighter bound short of the
    value is also logged as a Dask event ``{job, lower, upper}`` under ``topic``, so that the
    client (and its checkpoint) keeps a long task's progress before the task ends."""
    from solver.games.mancala import api
    from solver.search.alphabeta import AlphaBeta
    rules = Rules(pits, stones, capture_empty)
    pos = api.new_game(rules)
    for move in line:
        pos = api.apply(pos, move)
    found = None if tables in (None, False) else api.endgame_tables(tables, rules,
                                                                     required=True)
    engine = AlphaBeta(api.kernel_game(with_tables=found is not None), table_mb, found)
    seconds = None if deadline is None else max(deadline - time.time(), 1e-3)
    proof = prove_game(engine, api.to_packed(pos), rules, max_seconds=seconds,
                       side=pos.to_move, openings=False, stop=_event_watch(stop_events),
                       progress=_reporter(report))
    return dict(lower=proof.lower, upper=proof.upper, reply=proof.move, nodes=proof.nodes,
                expanded=proof.expanded,
                levels=0 if found is None else found.max_swing)


def _reporter(report: tuple[str, str] | None) -> Callable[[Proof], None] | None:
    """A worker task's progress callback that logs each new bound as a Dask event (the value
    itself comes with the task's result, beside its optimal move)."""
    if report is None:
        return None
    from distributed import get_worker
    worker, (topic, job), sent = get_worker(), report, {}

    def log(proof: Proof) -> None:
        bounds = (proof.lower, proof.upper)
        if proof.lower < proof.upper and sent.get("bounds") != bounds:
            sent["bounds"] = bounds
            worker.log_event(topic, dict(job=job, lower=proof.lower, upper=proof.upper))
    return log


def _event_watch(names: list[str] | None, every: float = 1.0) -> Callable[[], bool] | None:
    """Whether one of the Dask events ``names`` is set, asked of the scheduler at most
    every ``every`` seconds (each is a network call)."""
    if not names:
        return None
    from distributed import Event
    events, seen = [Event(name) for name in names], dict(at=-every, set=False)

    def watch() -> bool:
        now = time.monotonic()
        if not seen["set"] and now - seen["at"] >= every:
            seen["at"], seen["set"] = now, any(event.is_set() for event in events)
        return seen["set"]
    return watch
