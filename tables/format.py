"""Table files: one per level, a small JSON header and the raw int8 values (memory-mappable).

File layout (little-endian)::

    offset      size   field
    0           8      magic  b"SOLVTBL\\n"
    8           4      H: header length in bytes (uint32)
    12          H      header: canonical JSON (sorted keys, no spaces), UTF-8
    12 + H      N      body: N = entries signed bytes, the level's values in index order

    header keys   format         1 (this layout)
                  game, pits     "mancala", m (1..6 pits a side)
                  capture_empty  true / false (the rule the values were computed under)
                  rules_version  the Mancala rules' version, given by the caller (``Family``)
                  level          stones in the pits
                  index          "split{m}-colex-v1" (``tables.index``)
                  entries        C(level + 2m - 1, 2m - 1)
                  value          what a byte means (a fixed sentence, see VALUE_MEANING)
                  sha256         hex digest of the body

Nothing in a file depends on when, where or how it was built, so a resumed, a local and a
distributed build write the same bytes. Files are written to a temporary name in the same
directory, flushed to disk, and renamed: a file under its final name is always complete.

Every byte is checked before it is used: the magic and length frame the header; the header must
be exactly the canonical JSON of the expected fields (so a flipped byte anywhere in it is either
invalid JSON, a wrong key, a wrong value, or a non-canonical text); the file size must be the
header plus ``entries``; the body must hash to ``sha256`` (for a search, once per file: see
"trusting a file already hashed" below). Anything else is a ``TableError`` with a one-line
message naming the file.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import struct
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable


from tables.errors import TableError, shown
from tables.lazy import lazy_module
from tables.index import MAX_LEVEL, PITS, check_pits, level_size, scheme

np = lazy_module("numpy")    # on first use: listing tables and refusing input stay light

MAGIC = b"SOLVTBL\n"
FORMAT = 1
VALUE_MEANING = "future store gain, side to move minus opponent, perfect play"
SUFFIX = ".tbl"
_FRAME = struct.Struct("<8sI")
_CHUNK = 1 << 26   # bytes hashed or copied at a time
_HEADER_KEYS = {"format", "game", "pits", "capture_empty", "rules_version", "level", "index",
                "entries", "value", "sha256"}


@dataclass(frozen=True)
class Family:
    """Which tables: the board (``pits`` a side), the capture rule, and the version of the
    Mancala rules the caller plays (``tables`` does not know the rules' version itself: the
    caller's game record does, and every header carries it)."""

    pits: int = PITS
    capture_empty: bool = True
    rules_version: int = 1

    def __post_init__(self):
        try:
            check_pits(self.pits)
        except ValueError as error:
            raise TableError(str(error).replace("pits must", "--pits must")) from None
        if isinstance(self.rules_version, bool) or not isinstance(self.rules_version, int):
            raise TableError(f"rules_version must be a whole number, got {shown(self.rules_version)}")
        if not isinstance(self.capture_empty, bool):   # 'x' would pass for True, None for False
            raise TableError(f"capture_empty must be True or False, got {shown(self.capture_empty)}")

    @property
    def prefix(self) -> str:
        """``mancala6-capture-empty``: what every file name of this family starts with."""
        return f"mancala{self.pits}-{rule_name(self.capture_empty)}"

    def size(self, level: int) -> int:
        return level_size(level, self.pits)


def rule_name(capture_empty: bool) -> str:
    return "capture-empty" if capture_empty else "capture-nonempty"


def level_filename(level: int, family: Family) -> str:
    """``mancala6-capture-empty-level-07.tbl``: the board and the rule in the name, so every
    board and both rule sets can share a directory."""
    return f"{family.prefix}-level-{level:02d}{SUFFIX}"


def expected_header(level: int, family: Family, sha256: str) -> dict:
    return dict(format=FORMAT, game="mancala", pits=family.pits,
                capture_empty=bool(family.capture_empty), rules_version=family.rules_version,
                level=int(level), index=scheme(family.pits), entries=family.size(level),
                value=VALUE_MEANING, sha256=sha256)


def header_bytes(level: int, family: Family, sha256: str) -> bytes:
    """The frame and header of a level file (``"0" * 64`` for a placeholder of final length)."""
    text = _header_bytes(expected_header(level, family, sha256))
    return _FRAME.pack(MAGIC, len(text)) + text


def _header_bytes(header: dict) -> bytes:
    return json.dumps(header, sort_keys=True, separators=(",", ":")).encode()


# --- writing -----------------------------------------------------------------------------------

@contextmanager
def atomic_file(path: Path):
    """Open a temporary file beside ``path`` for writing; on success it is flushed, fsynced and
    renamed to ``path`` (then the directory is fsynced), so ``path`` is complete or absent. On
    failure the temporary file is removed."""
    path = Path(path)
    temporary = temporary_path(path)
    try:
        with open(temporary, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    finally:
        with suppress(OSError):     # e.g. a name too long to have been made
            temporary.unlink(missing_ok=True)
    fsync_directory(path.parent)


def write_table(path: Path, level: int, family: Family,
                body: np.ndarray | Iterable[np.ndarray]) -> str:
    """Write a level file atomically; ``body`` is the level's int8 values, whole or as
    consecutive pieces. Returns the body's sha256."""
    digest = hashlib.sha256()
    written = 0
    with atomic_file(path) as out:
        # Step 1. A header of the final length (the digest is not known yet), then the body.
        out.write(header_bytes(level, family, "0" * 64))
        for piece in ([body] if isinstance(body, np.ndarray) else body):
            view = memoryview(np.ascontiguousarray(piece, np.int8)).cast("B")
            for begin in range(0, len(view), _CHUNK):
                digest.update(view[begin:begin + _CHUNK])
            out.write(view)
            written += len(view)
        if written != family.size(level):
            raise RuntimeError(f"level {level} body has {written} bytes, expected "
                               f"{family.size(level)}")
        # Step 2. The real header over the placeholder; the same length by construction.
        out.seek(0)
        out.write(header_bytes(level, family, digest.hexdigest()))
    return digest.hexdigest()


def fsync_directory(directory: Path) -> None:
    """Make the rename itself durable."""
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def temporary_path(path: Path) -> Path:
    """Where a file is written before it is renamed over ``path`` (this process's own name)."""
    return path.with_name(f"{path.name}.tmp-{os.getpid()}")


def is_temporary(name: str) -> bool:
    return ".tmp-" in name


# --- reading -----------------------------------------------------------------------------------

def read_header(path: Path) -> tuple[dict, int]:
    """The header of a table file and where its body starts, after checking the frame, the
    header's keys and types, its canonical form and the file size (not the body's digest)."""
    path = Path(path)
    name = str(path)    # with its folder: it may be the default one, never named by the user
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):    # a pipe would block the open, a device lie
            raise TableError(f"table file {name}: not a regular file (a folder, a device or a "
                             "pipe)")
        size = status.st_size
        with open(path, "rb") as f:
            frame = f.read(_FRAME.size)
            if len(frame) < _FRAME.size:
                raise TableError(f"table file {name}: truncated ({size} bytes, no header)")
            magic, length = _FRAME.unpack(frame)
            if magic != MAGIC:
                raise TableError(f"table file {name}: not a solver table (bad magic bytes)")
            if length > 4096:
                raise TableError(f"table file {name}: corrupted header (length {length})")
            text = f.read(length)
    except OSError as error:
        raise TableError(f"table file {name}: cannot read it ({error.strerror})") from None
    if len(text) < length:
        raise TableError(f"table file {name}: truncated inside its header")
    try:
        header = json.loads(text.decode())
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise TableError(f"table file {name}: corrupted header (not valid JSON)") from None
    if not isinstance(header, dict) or set(header) != _HEADER_KEYS:
        raise TableError(f"table file {name}: corrupted header (unexpected fields)")
    level = header["level"]
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= MAX_LEVEL \
            or not isinstance(header["capture_empty"], bool) \
            or not isinstance(header["sha256"], str) or not _small_int(header["pits"], 1, 6) \
            or not _small_int(header["rules_version"], 0, 1 << 31):
        raise TableError(f"table file {name}: corrupted header (bad field types)")
    if _header_bytes(header) != text:
        raise TableError(f"table file {name}: corrupted header (not in canonical form)")
    body_offset = _FRAME.size + length
    entries = header["entries"]
    if isinstance(entries, int) and size != body_offset + entries:
        problem = "truncated" if size < body_offset + entries else "has trailing bytes"
        raise TableError(f"table file {name}: {problem} ({size} bytes, expected "
                         f"{body_offset + entries})")
    return header, body_offset


def _small_int(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def family_of(header: dict) -> Family:
    """The family a (read, well-formed) header claims."""
    return Family(header["pits"], header["capture_empty"], header["rules_version"])


def check_header(header: dict, name: str, level: int | None = None,
                 family: Family | None = None) -> None:
    """Refuse a header made for another game, board, rule set, rules version, index scheme or
    level than the caller's (None: whatever the file says)."""
    claimed = family_of(header)
    want = expected_header(header["level"] if level is None else level,
                           claimed if family is None else family, header["sha256"])
    for key in ("format", "game", "value"):
        if header[key] != want[key]:
            raise TableError(f"table file {name}: {key} is {header[key]!r}, this solver reads "
                             f"{want[key]!r}")
    if header["pits"] != want["pits"]:
        raise TableError(f"table file {name}: built for {header['pits']} pits a side, asked "
                         f"for {want['pits']}")
    if header["index"] != want["index"]:
        raise TableError(f"table file {name}: index is {header['index']!r}, this solver reads "
                         f"{want['index']!r}")
    if header["rules_version"] != want["rules_version"]:
        raise TableError(f"table file {name}: built for Mancala rules_version "
                         f"{header['rules_version']}, the rules are now version "
                         f"{want['rules_version']}: rebuild the tables")
    if header["capture_empty"] != want["capture_empty"]:
        raise TableError(f"table file {name}: built with captures {_rule_text(header)}, asked "
                         f"for captures {_rule_text(want)}")
    if header["level"] != want["level"] or header["entries"] != want["entries"]:
        raise TableError(f"table file {name}: holds level {header['level']} "
                         f"({header['entries']} entries), expected level {want['level']} "
                         f"({want['entries']} entries)")
    if len(header["sha256"]) != 64 or any(c not in "0123456789abcdef" for c in header["sha256"]):
        raise TableError(f"table file {name}: corrupted header (bad sha256 field)")


def _rule_text(header: dict) -> str:
    return "also from empty opposite pits" if header["capture_empty"] else \
        "only from non-empty opposite pits"


def body_digest(body) -> str:
    digest = hashlib.sha256()
    view = memoryview(body).cast("B")
    for begin in range(0, len(view), _CHUNK):
        digest.update(view[begin:begin + _CHUNK])
    return digest.hexdigest()


def open_table(path: Path, level: int | None = None, family: Family | None = None,
               verify: bool = True) -> tuple[dict, int]:
    """The checked header of a level file and where its body starts, checked against the
    expected level and family (None: any); with ``verify`` the body is hashed (in pieces, so
    memory stays flat) and compared with the header's sha256."""
    path = Path(path)
    header, offset = read_header(path)
    check_header(header, str(path), level, family)
    if verify:
        if file_digest(path, offset) != header["sha256"]:
            raise TableError(f"table file {path}: corrupted (its body does not match its "
                             f"sha256)")
        record_verified(path, header["sha256"])
    return header, offset


def file_digest(path: Path, offset: int) -> str:
    """sha256 of a file from ``offset`` to its end, read a piece at a time (the pages are
    dropped from the cache hint afterwards: a verify must not fill the memory)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            while piece := f.read(_CHUNK):
                digest.update(piece)
            if hasattr(os, "posix_fadvise"):
                os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    except OSError as error:
        raise TableError(f"table file {Path(path).name}: cannot read it ({error.strerror})"
                         ) from None
    return digest.hexdigest()


# --- trusting a file already hashed ----------------------------------------------------------
#
# Hashing every level before each search would cost seconds for large tables (1.25 GB up to
# level 24), so a file whose body was found whole (by a build, `tables verify` or a search) is
# recorded in its folder's STAMPS file with what the file system says of it: size, inode,
# modification and change times (ns), and its header's sha256. A search opens a recorded file
# with the header and size checks only, and hashes any other before its first use. Every write
# to a file moves its change time, which no user call can set back, so a file edited, replaced
# or copied since it was hashed is hashed again; damage that bypasses the file system (the
# medium itself) is what `solver tables verify` is for. The stamps are a cache: a missing,
# unreadable or unwritable one only costs a hash.
STAMPS = ".verified.json"


def _stamp(path: Path, sha256: str) -> list:
    status = os.stat(path)
    return [status.st_size, status.st_ino, status.st_mtime_ns, status.st_ctime_ns, sha256]


def read_stamps(directory: Path) -> dict:
    """The stamps, or none if the file is missing, damaged or not a regular file (only a
    hash more)."""
    path = Path(directory) / STAMPS
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return {}
        stamps = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError):
        return {}
    return stamps if isinstance(stamps, dict) else {}


def save_stamps(directory: Path, stamps: dict) -> None:
    """Write the stamps atomically; a folder we may not write to keeps none."""
    path = Path(directory) / STAMPS
    temporary = temporary_path(path)
    try:
        temporary.write_text(json.dumps(stamps, sort_keys=True))
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:     # a read-only file system refuses even that
            pass


def record_verified(path: Path, sha256: str) -> None:
    """Note that ``path``'s body hashes to ``sha256`` (it was just checked or written)."""
    path = Path(path)
    stamps = read_stamps(path.parent)
    stamps[path.name] = _stamp(path, sha256)
    save_stamps(path.parent, stamps)


def open_for_search(path: Path, level: int, family: Family, stamps: dict) -> tuple[dict, int]:
    """:func:`open_table` for a search: the body is hashed unless ``stamps`` (the folder's,
    :func:`read_stamps`) says this very file was found whole; a file hashed here is added to
    ``stamps`` (the caller saves them)."""
    path = Path(path)
    header, offset = open_table(path, level, family, verify=False)
    if stamps.get(path.name) != _stamp(path, header["sha256"]):
        if file_digest(path, offset) != header["sha256"]:
            raise TableError(f"table file {path}: corrupted (its body does not match its "
                             f"sha256)")
        stamps[path.name] = _stamp(path, header["sha256"])
    return header, offset


def read_body(path: Path, level: int, family: Family) -> np.ndarray:
    """A level file's values, checked, as a read-only int8 memmap (small levels, tests)."""
    header, offset = open_table(path, level, family, verify=True)
    return np.memmap(path, np.int8, "r", offset=offset, shape=(header["entries"],))
