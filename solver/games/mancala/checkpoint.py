"""What a long proof has proven, kept in a file so that a rerun goes on from it.

A Kalah(6,5) cell can take longer than a machine stays up. With a checkpoint file, every
change of a line's bounds is written at once (atomically: a temporary file, fsync, rename,
with a sha256 of the content), and a rerun of the same game with the same file starts from
those bounds: a proven line is not searched again, an unproven one starts inside its bounds.

A line is named by its moves from the start ("3-9-2": bins 3, 9 and 2), so its name fixes its
position whatever split or continuation produced it, and its bounds (A's view, as in
:class:`~solver.games.mancala.proof.Line`) are facts about that position: they hold whatever
tables, transposition table or cluster the run that proved them had. The file also sums the
nodes and seconds of every run, so a proof finished over several runs reports its whole cost.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from solver.errors import InputError, check_writable, read_input_file, refuse_dash
from solver.games.mancala.rules import SIDE_NAMES, Rules
from tables.format import atomic_file

FORMAT = "solver-kalah-proof-checkpoint"
VERSION = 1
# what to do with a file that is not a checkpoint: it may be another file named by mistake
NOT_OURS = "give another file, or delete it to start over if it is a damaged checkpoint"


class Checkpoint:
    """The bounds proven for each line of one game's proof, loaded from ``path`` if it exists
    (and checked: its format, checksum and game), written back by :meth:`record`."""

    def __init__(self, path, rules: Rules):
        if not isinstance(path, (str, os.PathLike)):
            raise InputError(f"a checkpoint is a file's path, got {type(path).__name__}")
        refuse_dash(path, "a checkpoint")
        try:
            self.path = Path(os.path.realpath(path))    # a link stays a link
            exists = self.path.exists()
        except (OSError, ValueError) as error:     # a name too long, a NUL byte
            raise InputError(f"checkpoint {str(path)[:80]!r}: "
                             f"{getattr(error, 'strerror', None) or error}") from None
        self.rules = rules
        self.lines: dict[str, list] = {}     # name -> [lower, upper, reply, reply_by]
        self.runs, self.nodes, self.seconds = 0, 0, 0.0
        if exists:
            self._load()
        self._run_nodes, self._run_seconds = 0, 0.0
        self.runs += 1
        check_writable(self.path, f"checkpoint {self.path}")   # now, not after hours

    @property
    def proven(self) -> int:
        return sum(1 for lower, upper, *_ in self.lines.values() if lower == upper)

    def was_split(self, name: str) -> bool:
        """Whether an earlier run proved bounds on lines split from line ``name``."""
        return any(key.startswith(name + "-") for key in self.lines)

    def apply(self, line) -> None:
        """Narrow ``line`` (and its continuations and split lines) to the bounds recorded."""
        for child in line.continuations + line.split:
            self.apply(child)
        known = self.lines.get(line.name)
        if known is None:
            return
        lower, upper, reply, reply_by = known
        line.lower, line.upper = max(line.lower, lower), min(line.upper, upper)
        if line.lower > line.upper:
            raise InputError(f"checkpoint {self.path}: line {line.name}'s bounds [{lower}, "
                             f"{upper}] contradict this proof's: the file is not of this game")
        if line.value is not None and line.reply is None and reply is not None:
            line.reply, line.reply_by = reply, reply_by

    def record(self, proof) -> None:
        """Keep every line's bounds of ``proof`` (and its nodes and seconds so far) if they
        changed what the file holds."""
        changed = False
        for line in _every_line(proof.openings):
            entry = [line.lower, line.upper, line.reply, line.reply_by]
            old = self.lines.get(line.name)
            if old is not None:       # never widen: a line may start wider than recorded
                entry[0], entry[1] = max(entry[0], old[0]), min(entry[1], old[1])
                if entry[2] is None:
                    entry[2], entry[3] = old[2], old[3]
            if entry[0] > entry[1]:   # a bound on file was false (hand-edited): keep the file
                raise InputError(f"checkpoint {self.path}: line {line.name}'s bounds on file "
                                 f"contradict what this run proved ([{entry[0]}, {entry[1]}]): "
                                 "the file is wrong; delete it to start over")
            if entry != old:
                self.lines[line.name], changed = entry, True
        self._run_nodes, self._run_seconds = proof.nodes, proof.seconds
        if changed:
            self._write()

    def finish(self, proof) -> None:
        """The run is over: its nodes and seconds go into the totals on file."""
        self.record(proof)
        self._write()

    def totals(self) -> dict:
        return dict(path=str(self.path), runs=self.runs, nodes=self.nodes + self._run_nodes,
                    seconds=round(self.seconds + self._run_seconds, 3),
                    lines=len(self.lines), proven=self.proven)

    # --- the file ---------------------------------------------------------------------------

    def _content(self) -> dict:
        totals = self.totals()
        return dict(format=FORMAT, version=VERSION, pits=self.rules.pits,
                    stones=self.rules.stones, capture_empty=self.rules.capture_empty,
                    runs=totals["runs"], nodes=totals["nodes"], seconds=totals["seconds"],
                    lines=self.lines)

    def _write(self) -> None:
        body = json.dumps(self._content(), sort_keys=True)
        text = json.dumps(dict(sha256=_digest(body), checkpoint=json.loads(body)),
                          sort_keys=True, indent=1)
        try:
            with atomic_file(self.path) as out:
                out.write((text + "\n").encode("utf-8"))
        except OSError as error:
            raise InputError(f"checkpoint {self.path}: cannot write it: "
                             f"{error.strerror or error}") from None

    def _load(self) -> None:
        where = f"checkpoint {self.path}"
        data = read_input_file(str(self.path), "checkpoint", dash_is_stdin=False)
        try:
            outer = json.loads(data.decode("utf-8"))
            content, digest = outer["checkpoint"], outer["sha256"]
        except RecursionError:
            raise InputError(f"{where} is not a proof checkpoint or is damaged (nested too "
                             f"deeply): {NOT_OURS}") from None
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
            raise InputError(f"{where} is not a proof checkpoint or is damaged ({error}): "
                             f"{NOT_OURS}") from None
        if not isinstance(digest, str) or _digest(json.dumps(content, sort_keys=True)) != digest:
            raise InputError(f"{where} is damaged (its checksum does not match): delete it to "
                             "start over")
        if not isinstance(content, dict) or content.get("format") != FORMAT or \
                content.get("version") != VERSION:
            raise InputError(f"{where} is not a version-{VERSION} proof checkpoint")
        problem = _shape_problem(content)
        if problem:     # a checksum anyone can recompute: a hand-edited file gets this far
            raise InputError(f"{where} is damaged ({problem}): delete it to start over")
        game = (content["pits"], content["stones"], content["capture_empty"])
        if game != (self.rules.pits, self.rules.stones, self.rules.capture_empty):
            rule = "capture-empty" if content["capture_empty"] else "no-capture-empty"
            raise InputError(f"{where} is of Kalah({game[0]},{game[1]}) {rule}, not of this "
                             "game: use another file")
        self.lines = {name: list(entry) for name, entry in content["lines"].items()}
        self.runs, self.nodes, self.seconds = content["runs"], content["nodes"], \
            content["seconds"]


def _is_int(value) -> bool:
    return type(value) is int


def _shape_problem(content: dict) -> str | None:
    """What in a checkpoint's content is not as :meth:`Checkpoint._content` writes it."""
    if not (_is_int(content.get("pits")) and _is_int(content.get("stones")) and
            type(content.get("capture_empty")) is bool):
        return "its game is not pits, stones and a capture rule"
    for key in ("runs", "nodes"):
        if not _is_int(content.get(key)) or content[key] < 0:
            return f"{key} is not a count"
    seconds = content.get("seconds")
    if type(seconds) not in (int, float) or not 0 <= seconds < 1e12:
        return "seconds is not a time"
    lines = content.get("lines")
    if not isinstance(lines, dict):
        return "lines is not a table of lines"
    bins = 2 * content["pits"]
    for name, entry in lines.items():
        if not (isinstance(entry, list) and len(entry) == 4 and _is_int(entry[0]) and
                _is_int(entry[1]) and entry[0] <= entry[1] and
                (entry[2] is None or _is_int(entry[2]) and 1 <= entry[2] <= bins) and
                (entry[3] is None or entry[3] in SIDE_NAMES)):
            return f"line {name[:40]!r} is not [lower, upper, reply, reply_by]"
    return None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _every_line(lines):
    for line in lines:
        yield line
        yield from _every_line(line.continuations + line.split)
