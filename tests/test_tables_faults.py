"""Table builds lose nothing under faults (issue 9, item 4): a disk that fills up in the middle
of a level, a read-only folder, a folder whose lock another build holds, a lock left by a
killed build, damaged pieces. Each gives one clear line (``solver: error: ...``, exit 2) or is
recovered; no partial file is ever trusted: the rerun's files equal an uninterrupted build's.

The full disk and the read-only folder are real: small tmpfs mounts (the tests need root to
mount them and are skipped without it)."""
import json
import os
import signal
import subprocess
import sys
import textwrap
from contextlib import contextmanager

import pytest

import numpy as np

from solver import tables as api
from tables import levels
from tables.errors import TableError
from tables.format import Family
from tables.levels import disk_needed, found_pieces, write_piece

SIX = Family(6, True, 1)

# The real command line in a subprocess, with every piece written to its file (the default
# skips small pieces, and these levels are small).
CLI = textwrap.dedent("""
    import sys
    from tables import levels
    levels.PERSIST_MIN = 1
    from solver.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def solver(*args, every_piece: bool = True):
    command = ["-c", CLI] if every_piece else ["-m", "solver"]
    return subprocess.run([sys.executable, *command, *map(str, args)], capture_output=True,
                          text=True)


def one_line_error(done) -> str:
    assert done.returncode == 2, done.stderr
    # the progress lines of the levels finished before the fault, then the one error line
    lines = [line for line in done.stderr.strip().splitlines() if not line.startswith("level ")]
    assert len(lines) == 1 and lines[0].startswith("solver: error: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


def files_of(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.tbl"))}


def leftovers(directory):
    return sorted(p.name for p in directory.iterdir()
                  if ".tmp-" in p.name or p.name.endswith(".work"))


@contextmanager
def tmpfs(path, size: str, read_only: bool = False):
    """A real small file system at ``path`` (needs root)."""
    path.mkdir()
    options = f"size={size}" + (",ro" if read_only else "")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """An uninterrupted build to compare with."""
    directory = tmp_path_factory.mktemp("clean")
    api.build(TOP, directory)
    return directory


TOP = 11


def fill_up(folder) -> None:
    """Take every free byte of ``folder``'s file system (a tmpfs: writes fail with ENOSPC)."""
    with open(folder / "filler", "wb") as filler:
        try:
            while True:
                filler.write(bytes(1 << 16))
                filler.flush()
        except OSError:
            pass


def test_a_disk_that_fills_up_mid_level_leaves_only_trusted_files(tmp_path, clean, monkeypatch):
    # The disk holds the whole build when it starts (so the build is not refused at once);
    # another program fills it up once level 11's first piece is written.
    monkeypatch.setattr(levels, "PERSIST_MIN", 1)   # every piece to its file

    def fill_up_in_level_11(progress):
        if progress.level == TOP and progress.stage == "build" and \
                not (small / "filler").exists():
            fill_up(small)

    with tmpfs(tmp_path / "small", "4m") as small:
        with pytest.raises(TableError) as refused:
            api.build(TOP, small, progress=fill_up_in_level_11)
        message = str(refused.value)
        assert "disk is full" in message and "rerun to resume" in message
        (small / "filler").unlink()
        assert leftovers(small) == []  # no temporary file, no working file
        assert files_of(small) == {name: raw for name, raw in files_of(clean).items()
                                   if f"level-{TOP}" not in name}
        pieces = found_pieces(small, TOP, SIX)
        assert pieces  # the finished pieces of level 11, whole and checked on the rerun
        big = tmp_path / "big"
        big.mkdir()
        for path in small.iterdir():
            (big / path.name).write_bytes(path.read_bytes())
    report = api.build(TOP, big)
    assert report.built == [TOP] and report.resumed > 0
    assert files_of(big) == files_of(clean)
    assert api.info(big).leftovers == []


def test_a_disk_too_small_for_the_build_refuses_it_at_once_and_says_what_fits(tmp_path, clean):
    # Levels 1..10 take 0.65 MB; level 11 another 0.7 MB, and its pieces as much again while
    # it is built: 1,000 KB holds levels up to 10 only.
    with tmpfs(tmp_path / "tiny", "1000k") as tiny:
        message = one_line_error(solver("tables", "build", "mancala", "--max-stones", TOP,
                                        "--dir", tiny, every_piece=False))
        assert f"levels 1..{TOP} need " in message and "--max-stones 10 would fit" in message
        assert os.listdir(tiny) == [] or leftovers(tiny) == []
        assert api.info(tiny).levels(True) == []                  # nothing begun
        done = solver("tables", "build", "mancala", "--max-stones", 10, "--dir", tiny,
                      every_piece=False)
        assert done.returncode == 0, done.stderr                    # the advice holds
    assert f"need {disk_needed(tmp_path, SIX, list(range(1, TOP + 1))) / 2**20:,.1f} MiB " \
        "of disk" in message


def test_the_disk_a_build_needs_counts_what_an_earlier_run_left(tmp_path):
    missing = [5, 6]
    small = disk_needed(tmp_path, SIX, missing)     # levels below PERSIST_MIN: no pieces
    # beyond the values: headers, last blocks, the record of verified files twice over
    assert 0 < small - SIX.size(5) - SIX.size(6) < 4 * 4096
    missing = [20, 21]                              # the largest written in pieces meanwhile
    assert SIX.size(21) >= levels.PERSIST_MIN
    fresh = disk_needed(tmp_path, SIX, missing)
    overhead = fresh - SIX.size(20) - 2 * SIX.size(21)
    assert 0 < overhead < 5 * 4096 + SIX.size(21) // 100
    values = np.zeros(100, np.int8)
    write_piece(tmp_path, 21, SIX, 0, 0, values)                # a finished piece of level 21
    piece = next(iter(found_pieces(tmp_path, 21, SIX).values()))[0][2]
    assert disk_needed(tmp_path, SIX, missing) == fresh - piece.stat().st_size
    assert disk_needed(tmp_path, SIX, []) == 0


def test_a_read_only_folder_is_refused_in_one_line_and_still_read(tmp_path, clean):
    with tmpfs(tmp_path / "ro", "4m", read_only=True) as folder:
        message = one_line_error(solver("tables", "build", "mancala", "--max-stones", 3,
                                        "--dir", folder))
        assert "cannot write in table directory" in message and "Read-only" in message
    # Finished tables in a folder this process cannot write: probing and searching still work.
    with tmpfs(tmp_path / "ro2", "4m") as folder:
        for name, raw in files_of(clean).items():
            (folder / name).write_bytes(raw)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        assert api.verify(folder, sample=5, seed=1).ok
        assert api.probe("1,0,0,0,0,0/1,0,0,0,0,0 0-0 A", folder).value == 0
        assert api.load_for_search(folder).max_level == TOP
        # A build it already holds is checked and reported, as anywhere; one more level is not.
        done = solver("tables", "build", "mancala", "--max-stones", TOP, "--dir", folder,
                      "--json", every_piece=False)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["loaded"] == list(range(1, TOP + 1))
        message = one_line_error(solver("tables", "build", "mancala", "--max-stones", TOP + 1,
                                        "--dir", folder))
        assert "cannot write in table directory" in message


HOLDER = textwrap.dedent("""
    import sys, time
    from tables import api, levels
    levels.PERSIST_MIN = 1
    def progress(p):
        if p.level == 10 and p.stage == "build" and 0 < p.done < p.total:
            print("HOLDING", flush=True)
            time.sleep(600)
    api.build(11, sys.argv[1], progress=progress)
""")


def test_a_held_lock_is_refused_and_a_killed_holders_lock_is_taken_over(tmp_path, clean):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "HOLDING"
        message = one_line_error(solver("tables", "build", "mancala", "--max-stones", TOP,
                                        "--dir", tmp_path))
        assert "another build is writing the 6-pit capture-empty tables" in message
        # Another rule set in the same folder is another lock: it may build meanwhile.
        other = solver("tables", "build", "mancala", "--max-stones", 4, "--no-capture-empty",
                       "--dir", tmp_path)
        assert other.returncode == 0, other.stderr
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=60)
    assert (tmp_path / f".{SIX.prefix}.lock").exists()  # the stale lock file stays behind
    report = api.build(TOP, tmp_path)  # and does not stop the next build
    assert report.built == [10, 11] and report.resumed > 0
    assert {n: r for n, r in files_of(tmp_path).items() if "nonempty" not in n} \
        == files_of(clean)


def test_damaged_pieces_and_a_stale_working_file_are_never_trusted(tmp_path, clean):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "HOLDING"
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=60)
    pieces = sorted(path for ranges in found_pieces(tmp_path, 10, SIX).values()
                    for _, _, path in ranges)
    assert len(pieces) >= 1
    work = tmp_path / "mancala6-capture-empty-level-10.tbl.work"
    assert work.exists()
    work.write_bytes(work.read_bytes()[:1000])  # whatever the working file holds is rebuilt
    raw = bytearray(pieces[0].read_bytes())
    raw[-1] ^= 0x01  # a flipped value: its checksum fails
    pieces[0].write_bytes(bytes(raw))
    if len(pieces) > 1:
        pieces[1].write_bytes(pieces[1].read_bytes()[:-3])  # a truncated piece
    report = api.build(TOP, tmp_path)
    assert report.built == [10, 11]
    assert files_of(tmp_path) == files_of(clean)
    assert api.info(tmp_path).leftovers == []
