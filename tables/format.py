"""Table files: one per level, a small JSON header and the raw int8 values (memory-mappable).

File layout (little-endian)::

    offset      size   field
    0           8      magic  b"SOLVTBL\\n"
    8           4      H: header length in bytes (uint32)
    12          H      header: canonical JSON (sorted keys, no spaces), UTF-8
    12 + H      N      body: N = entries signed bytes, the level's values in index order

    header keys   format         1 (this layout)
                  game, pits     "mancala", 6
                  capture_empty  true / false (the rule the values were computed under)
                  rules_version  the Mancala rules' version (``solver.games.mancala.INFO``)
                  level          stones in the pits
                  index          "split6-colex-v1" (``tables.index``)
                  entries        C(level + 11, 11)
                  value          what a byte means (a fixed sentence, see VALUE_MEANING)
                  sha256         hex digest of the body

Nothing in a file depends on when, where or how it was built, so a resumed, a local and a
distributed build write the same bytes. Files are written to a temporary name in the same
directory, flushed to disk, and renamed: a file under its final name is always complete.

Every byte is checked on loading: the magic and length frame the header; the header must be
exactly the canonical JSON of the expected fields (so a flipped byte anywhere in it is either
invalid JSON, a wrong key, a wrong value, or a non-canonical text); the file size must be the
header plus ``entries``; the body must hash to ``sha256``. Anything else is an ``InputError``
with a one-line message naming the file.
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable

import numpy as np

from solver.errors import InputError
from solver.games.mancala import INFO as MANCALA
from tables.index import INDEX_SCHEME, MAX_LEVEL, PITS, level_size

MAGIC = b"SOLVTBL\n"
FORMAT = 1
VALUE_MEANING = "future store gain, side to move minus opponent, perfect play"
SUFFIX = ".tbl"
_FRAME = struct.Struct("<8sI")
_CHUNK = 1 << 26   # bytes hashed or copied at a time
_HEADER_KEYS = {"format", "game", "pits", "capture_empty", "rules_version", "level", "index",
                "entries", "value", "sha256"}


def rule_name(capture_empty: bool) -> str:
    return "capture-empty" if capture_empty else "capture-nonempty"


def level_filename(level: int, capture_empty: bool) -> str:
    """``mancala6-capture-empty-level-07.tbl``: the rule in the name, so both rule sets can
    share a directory."""
    return f"mancala{PITS}-{rule_name(capture_empty)}-level-{level:02d}{SUFFIX}"


def expected_header(level: int, capture_empty: bool, sha256: str) -> dict:
    return dict(format=FORMAT, game="mancala", pits=PITS, capture_empty=bool(capture_empty),
                rules_version=MANCALA.rules_version, level=int(level), index=INDEX_SCHEME,
                entries=level_size(level), value=VALUE_MEANING, sha256=sha256)


def _header_bytes(header: dict) -> bytes:
    return json.dumps(header, sort_keys=True, separators=(",", ":")).encode()


# --- writing -----------------------------------------------------------------------------------

@contextmanager
def atomic_file(path: Path):
    """Open a temporary file beside ``path`` for writing; on success it is flushed, fsynced and
    renamed to ``path`` (then the directory is fsynced), so ``path`` is complete or absent. On
    failure the temporary file is removed."""
    path = Path(path)
    temporary = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        with open(temporary, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()
    _fsync_directory(path.parent)


def write_table(path: Path, level: int, capture_empty: bool,
                body: np.ndarray | Iterable[np.ndarray]) -> str:
    """Write a level file atomically; ``body`` is the level's int8 values, whole or as
    consecutive pieces. Returns the body's sha256."""
    placeholder = _header_bytes(expected_header(level, capture_empty, "0" * 64))
    digest = hashlib.sha256()
    written = 0
    with atomic_file(path) as out:
        # Step 1. A header of the final length (the digest is not known yet), then the body.
        out.write(_FRAME.pack(MAGIC, len(placeholder)) + placeholder)
        for piece in ([body] if isinstance(body, np.ndarray) else body):
            view = memoryview(np.ascontiguousarray(piece, np.int8)).cast("B")
            for begin in range(0, len(view), _CHUNK):
                digest.update(view[begin:begin + _CHUNK])
            out.write(view)
            written += len(view)
        if written != level_size(level):
            raise RuntimeError(f"level {level} body has {written} bytes, expected "
                               f"{level_size(level)}")
        # Step 2. The real header over the placeholder; the same length by construction.
        header = _header_bytes(expected_header(level, capture_empty, digest.hexdigest()))
        out.seek(0)
        out.write(_FRAME.pack(MAGIC, len(header)) + header)
    return digest.hexdigest()


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable."""
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def is_temporary(name: str) -> bool:
    return ".tmp-" in name


# --- reading -----------------------------------------------------------------------------------

def read_header(path: Path) -> tuple[dict, int]:
    """The header of a table file and where its body starts, after checking the frame, the
    header's keys and types, its canonical form and the file size (not the body's digest)."""
    path = Path(path)
    name = path.name
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            frame = f.read(_FRAME.size)
            if len(frame) < _FRAME.size:
                raise InputError(f"table file {name}: truncated ({size} bytes, no header)")
            magic, length = _FRAME.unpack(frame)
            if magic != MAGIC:
                raise InputError(f"table file {name}: not a solver table (bad magic bytes)")
            if length > 4096:
                raise InputError(f"table file {name}: corrupted header (length {length})")
            text = f.read(length)
    except OSError as error:
        raise InputError(f"table file {name}: cannot read it ({error.strerror})") from None
    if len(text) < length:
        raise InputError(f"table file {name}: truncated inside its header")
    try:
        header = json.loads(text.decode())
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError(f"table file {name}: corrupted header (not valid JSON)") from None
    if not isinstance(header, dict) or set(header) != _HEADER_KEYS:
        raise InputError(f"table file {name}: corrupted header (unexpected fields)")
    level = header["level"]
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= MAX_LEVEL \
            or not isinstance(header["capture_empty"], bool) \
            or not isinstance(header["sha256"], str):
        raise InputError(f"table file {name}: corrupted header (bad field types)")
    if _header_bytes(header) != text:
        raise InputError(f"table file {name}: corrupted header (not in canonical form)")
    body_offset = _FRAME.size + length
    entries = header["entries"]
    if isinstance(entries, int) and size != body_offset + entries:
        problem = "truncated" if size < body_offset + entries else "has trailing bytes"
        raise InputError(f"table file {name}: {problem} ({size} bytes, expected "
                         f"{body_offset + entries})")
    return header, body_offset


def check_header(header: dict, name: str, level: int | None = None,
                 capture_empty: bool | None = None) -> None:
    """Refuse a header made for another game, board, rule set, rules version, index scheme or
    level than the caller's (None: whatever the file says)."""
    want = expected_header(header["level"] if level is None else level,
                           header["capture_empty"] if capture_empty is None else capture_empty,
                           header["sha256"])
    for key in ("format", "game", "pits", "index", "value"):
        if header[key] != want[key]:
            raise InputError(f"table file {name}: {key} is {header[key]!r}, this solver reads "
                             f"{want[key]!r}")
    if header["rules_version"] != want["rules_version"]:
        raise InputError(f"table file {name}: built for Mancala rules_version "
                         f"{header['rules_version']}, the rules are now version "
                         f"{want['rules_version']}: rebuild the tables")
    if header["capture_empty"] != want["capture_empty"]:
        raise InputError(f"table file {name}: built with captures {_rule_text(header)}, asked "
                         f"for captures {_rule_text(want)}")
    if header["level"] != want["level"] or header["entries"] != want["entries"]:
        raise InputError(f"table file {name}: holds level {header['level']} "
                         f"({header['entries']} entries), expected level {want['level']} "
                         f"({want['entries']} entries)")
    if len(header["sha256"]) != 64 or any(c not in "0123456789abcdef" for c in header["sha256"]):
        raise InputError(f"table file {name}: corrupted header (bad sha256 field)")


def _rule_text(header: dict) -> str:
    return "also from empty opposite pits" if header["capture_empty"] else \
        "only from non-empty opposite pits"


def body_digest(body) -> str:
    digest = hashlib.sha256()
    view = memoryview(body).cast("B")
    for begin in range(0, len(view), _CHUNK):
        digest.update(view[begin:begin + _CHUNK])
    return digest.hexdigest()


def open_table(path: Path, level: int | None = None, capture_empty: bool | None = None,
               verify: bool = True) -> tuple[dict, np.memmap]:
    """The header and the memory-mapped body (int8[entries], read-only) of a level file,
    checked against the expected level and rule (None: any), the body against its digest
    (``verify``; without it only the frame, header and size are checked)."""
    path = Path(path)
    header, offset = read_header(path)
    check_header(header, path.name, level, capture_empty)
    body = np.memmap(path, np.int8, "r", offset=offset, shape=(header["entries"],))
    if verify and body_digest(body) != header["sha256"]:
        raise InputError(f"table file {path.name}: corrupted (its body does not match its "
                         f"sha256)")
    return header, body


def read_table_into(path: Path, level: int, capture_empty: bool, out: np.ndarray) -> dict:
    """Copy a level file's body into ``out`` (int8[entries]) and check its digest on the way:
    one pass over the file. ``out`` is left unspecified if the file is refused."""
    path = Path(path)
    header, offset = read_header(path)
    check_header(header, path.name, level, capture_empty)
    view = memoryview(out).cast("B")
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        f.seek(offset)
        for begin in range(0, len(view), _CHUNK):
            piece = view[begin:begin + _CHUNK]
            if f.readinto(piece) != len(piece):
                raise InputError(f"table file {path.name}: truncated while reading")
            digest.update(piece)
    if digest.hexdigest() != header["sha256"]:
        raise InputError(f"table file {path.name}: corrupted (its body does not match its "
                         f"sha256)")
    return header
