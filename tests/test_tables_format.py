"""Table files: the layout round-trips, and every damaged or foreign file is refused with a
one-line TableError (never silently used)."""
import json
import struct

import numpy as np
import pytest

from tables import format as fmt
from tables import index
from tables.errors import TableError

SIX = fmt.Family(6, True, 1)
OTHER_RULE = fmt.Family(6, False, 1)

LEVEL = 3


@pytest.fixture
def level_file(tmp_path):
    """A level-3 file of made-up values (the format does not care what they mean)."""
    body = (np.arange(index.level_size(LEVEL)) % 7 - 3).astype(np.int8)
    path = tmp_path / fmt.level_filename(LEVEL, SIX)
    fmt.write_table(path, LEVEL, SIX, body)
    return path, body


def rewrite_header(path, **changes):
    """Replace header fields, keeping the file otherwise as it was (canonical JSON)."""
    raw = path.read_bytes()
    length = struct.unpack_from("<I", raw, 8)[0]
    header = json.loads(raw[12:12 + length])
    header.update(changes)
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    path.write_bytes(raw[:8] + struct.pack("<I", len(text)) + text + raw[12 + length:])


def refused(path, **expect) -> str:
    with pytest.raises(TableError) as caught:
        fmt.open_table(path, **expect)
    message = str(caught.value)
    assert "\n" not in message and path.name in message
    return message


def test_a_written_file_maps_back_to_its_values(level_file):
    path, body = level_file
    header, _ = fmt.open_table(path, LEVEL, SIX)
    mapped = fmt.read_body(path, LEVEL, SIX)
    assert isinstance(mapped, np.memmap) and mapped.dtype == np.int8
    assert np.array_equal(mapped, body)
    assert header["level"] == LEVEL and header["entries"] == index.level_size(LEVEL)
    assert header["index"] == index.INDEX_SCHEME and header["game"] == "mancala"
    assert header["capture_empty"] is True and header["rules_version"] == 1
    assert path.stat().st_size == 12 + len(json.dumps(header, sort_keys=True,
                                                       separators=(",", ":"))) + body.size
    # no temporary file left; the check above noted the file as found whole
    assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, fmt.STAMPS])


def test_the_body_can_be_written_in_pieces(level_file, tmp_path):
    path, body = level_file
    other = tmp_path / "pieces" / path.name
    other.parent.mkdir()
    fmt.write_table(other, LEVEL, SIX, (body[i:i + 100] for i in range(0, body.size, 100)))
    assert other.read_bytes() == path.read_bytes()


def test_a_body_of_the_wrong_size_is_never_written(tmp_path):
    path = tmp_path / fmt.level_filename(LEVEL, SIX)
    with pytest.raises(RuntimeError):
        fmt.write_table(path, LEVEL, SIX, np.zeros(10, np.int8))
    assert list(tmp_path.iterdir()) == []


def test_a_truncated_file_is_refused(level_file):
    path, _ = level_file
    path.write_bytes(path.read_bytes()[:-1])
    assert "truncated" in refused(path)
    path.write_bytes(path.read_bytes()[:20])
    assert "truncated" in refused(path)


def test_one_flipped_byte_in_the_body_is_refused(level_file):
    path, _ = level_file
    raw = bytearray(path.read_bytes())
    raw[-100] ^= 0x01
    path.write_bytes(bytes(raw))
    assert "sha256" in refused(path, level=LEVEL, family=SIX)
    assert "sha256" in refused(path)


def test_one_flipped_byte_anywhere_in_the_header_is_refused(level_file):
    path, _ = level_file
    raw = path.read_bytes()
    length = struct.unpack_from("<I", raw, 8)[0]
    for position in range(12 + length):
        for flip in (0x01, 0x20, 0x80):
            damaged = bytearray(raw)
            damaged[position] ^= flip
            path.write_bytes(bytes(damaged))
            refused(path, level=LEVEL, family=SIX)


def test_a_table_of_the_other_capture_rule_is_refused(level_file):
    path, _ = level_file
    assert "only from non-empty" in refused(path, family=OTHER_RULE)


def test_a_table_of_other_rules_or_another_index_scheme_is_refused(level_file):
    path, _ = level_file
    rewrite_header(path, rules_version=99)
    assert "rules_version 99" in refused(path, family=SIX)
    rewrite_header(path, rules_version=1, index="colex12")
    assert "index" in refused(path)
    rewrite_header(path, index=index.INDEX_SCHEME, pits=5)
    assert "pits" in refused(path, family=SIX)


def test_every_board_has_its_own_name_and_header(tmp_path):
    for pits in range(1, 7):
        family = fmt.Family(pits, False, 1)
        path = tmp_path / fmt.level_filename(4, family)
        assert path.name == f"mancala{pits}-capture-nonempty-level-04.tbl"
        fmt.write_table(path, 4, family, np.zeros(index.level_size(4, pits), np.int8))
        header, _ = fmt.open_table(path, 4, family)
        assert header["pits"] == pits and header["index"] == f"split{pits}-colex-v1"
        assert header["entries"] == index.level_size(4, pits)
        if pits != 6:
            assert f"built for {pits} pits" in refused(path, family=SIX)


def test_a_file_of_another_level_is_refused(level_file):
    path, _ = level_file
    assert "expected level 4" in refused(path, level=4)


def test_a_foreign_file_is_refused(tmp_path):
    path = tmp_path / fmt.level_filename(2, SIX)
    path.write_text("hello, I am not a table at all")
    assert "not a solver table" in refused(path)
