"""A long proof keeps what it proved in a checkpoint file: a rerun with the file goes on from
there (proven lines are not searched again) and ends with the values of an uninterrupted
proof; a damaged or foreign file is bad input, never silently used."""
import copy
import json
import signal
import subprocess
import sys

import pytest

from solver.errors import InputError
from solver.games.mancala import api
from documents import DELETE, edit
from test_cli import assert_one_line_error, run

RULES = api.Rules(5, 3)


def values(proof):
    return proof.value, proof.move, [(line.name, line.value, line.reply)
                                     for o in proof.openings
                                     for line in [o] + o.continuations]


@pytest.fixture(scope="module")
def uninterrupted():
    return api.solve(RULES, tables=False, table_mb=16)


def test_a_proof_stopped_and_rerun_with_its_checkpoint_ends_with_the_same_values(
        tmp_path, uninterrupted):
    path = tmp_path / "k53.json"
    first = api.solve(RULES, tables=False, table_mb=16, max_nodes=3_000, checkpoint=path)
    assert first.stopped == "max-nodes" and first.checkpoint["runs"] == 1
    rerun = api.solve(RULES, tables=False, table_mb=16, checkpoint=path)
    assert rerun.finished and values(rerun) == values(uninterrupted)
    assert rerun.checkpoint["runs"] == 2
    assert rerun.checkpoint["nodes"] == first.nodes + rerun.nodes


def test_proven_lines_are_not_searched_again(tmp_path, uninterrupted):
    path = tmp_path / "k53.json"
    api.solve(RULES, tables=False, table_mb=16, checkpoint=path)
    again = api.solve(RULES, tables=False, table_mb=16, checkpoint=path)
    assert again.finished and values(again) == values(uninterrupted)
    assert again.nodes == 0 and again.checkpoint["proven"] == again.checkpoint["lines"]


def test_a_rerun_starts_every_line_inside_the_bounds_on_file(tmp_path, uninterrupted):
    path = tmp_path / "k53.json"
    api.solve(RULES, tables=False, table_mb=16, max_nodes=20_000, checkpoint=path)
    kept = json.loads(path.read_text())["checkpoint"]["lines"]
    resumed = api.solve(RULES, tables=False, table_mb=16, max_nodes=1, checkpoint=path)
    for line in resumed.openings:
        assert kept[line.name][0] <= line.lower <= line.upper <= kept[line.name][1]
    exact = {o.name: o.value for o in uninterrupted.openings}
    assert all(low <= exact[name] <= high for name, (low, high, *_) in kept.items()
               if name in exact)


def test_the_checkpoint_carries_a_checksum_and_a_damaged_one_is_refused(tmp_path):
    path = tmp_path / "k53.json"
    api.solve(RULES, tables=False, table_mb=16, max_nodes=3_000, checkpoint=path)
    text = path.read_text()
    path.write_text(text.replace('"runs": 1', '"runs": 7'))
    done = run("solve", "mancala", "--pits", "5", "--stones", "3", "--no-tables",
               "--checkpoint", str(path))
    assert_one_line_error(done)
    assert "checksum" in done.stderr
    path.write_text(text[: len(text) // 2])        # truncated
    assert_one_line_error(run("solve", "mancala", "--pits", "5", "--stones", "3",
                              "--no-tables", "--checkpoint", str(path)))



def _resealed(outer: dict, content) -> str:
    """A checkpoint whose content was edited and its checksum recomputed (anyone can)."""
    import hashlib
    text = json.dumps(content, sort_keys=True)
    return json.dumps(dict(outer, checkpoint=content,
                           sha256=hashlib.sha256(text.encode()).hexdigest()))


def test_a_resealed_checkpoint_of_the_wrong_shape_is_one_line(tmp_path):
    """A checksum guards against damage, not against edits: every field is checked too."""
    path = tmp_path / "k53.json"
    api.solve(RULES, tables=False, table_mb=16, max_nodes=3_000, checkpoint=path)
    outer = json.loads(path.read_text())
    content = outer["checkpoint"]
    name = next(iter(content["lines"]))
    edits = [([], None), (["pits"], DELETE), (["lines"], {name: 5}), (["lines"], [1, 2]),
             (["lines", name], ["a", "b", None, None]), (["lines", name], [0]),
             (["lines", name], [3, 1, None, None]), (["runs"], "x"), (["nodes"], [1]),
             (["seconds"], "x")]
    for where, value in edits:
        edited = copy.deepcopy(content)
        if where:
            edit(edited, where, value)
        else:
            edited = value
        path.write_text(_resealed(outer, edited))
        done = run("solve", "mancala", "--pits", "5", "--stones", "3", "--no-tables",
                   "--checkpoint", str(path))
        assert_one_line_error(done)
    path.write_text("[" * 100_000 + "]" * 100_000)          # nested too deeply for json
    assert_one_line_error(run("solve", "mancala", "--pits", "5", "--stones", "3",
                              "--no-tables", "--checkpoint", str(path)))

def test_a_checkpoint_of_another_game_is_refused(tmp_path):
    path = tmp_path / "k53.json"
    api.solve(RULES, tables=False, table_mb=16, max_nodes=3_000, checkpoint=path)
    with pytest.raises(InputError, match=r"of Kalah\(5,3\) capture-empty, not of this game"):
        api.solve(api.Rules(5, 3, False), tables=False, checkpoint=path)
    with pytest.raises(InputError, match="no folder"):
        api.solve(RULES, tables=False, checkpoint=tmp_path / "missing" / "k.json")


def test_a_killed_command_line_proof_resumes_from_its_checkpoint(tmp_path):
    """kill -9 in the middle of a proof: the file is whole (written atomically) and the rerun
    finishes with the values of a proof never stopped."""
    path = tmp_path / "k54.json"
    proc = subprocess.Popen([sys.executable, "-m", "solver", "solve", "mancala", "--pits", "5",
                             "--stones", "4", "--no-tables", "--table-mb", "64",
                             "--checkpoint", str(path), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stderr.readline()                     # the first progress line: under way
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert json.loads(path.read_text())["checkpoint"]["runs"] == 1
    done = run("solve", "mancala", "--pits", "5", "--stones", "4", "--no-tables",
               "--table-mb", "64", "--checkpoint", str(path), "--json", timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    plain = api.solve(api.Rules(5, 4), tables=False, table_mb=64)
    assert out["finished"] and (out["value"], out["move"]) == (plain.value, plain.move)
    assert [(o["line"], o["value"]) for o in out["openings"]] == \
        [(o.name, o.value) for o in plain.openings]
    assert out["checkpoint"]["runs"] == 2 and not list(tmp_path.glob("*.tmp-*"))
