"""benches/compare_peers.py's peer runs: a peer's command line filled in per rule, its answer
read from its output, and one real interleaved run against benches/solve_kalah.py."""
import sys

import pytest

from benches import compare_peers


def test_placeholders_are_filled_in_per_rule():
    command = ["kalah_ab", "-m", "{pits}", "-n", "{stones}", "-r", "{rules}", "-c{capture_empty}"]
    assert compare_peers.peer_command(command, "capture_empty", 6, 4) == \
        ["kalah_ab", "-m", "6", "-n", "4", "-r", "capture_empty", "-c1"]
    assert compare_peers.peer_command(command, "no-capture-empty", 5, 3) == \
        ["kalah_ab", "-m", "5", "-n", "3", "-r", "no-capture-empty", "-c0"]


def test_an_unknown_placeholder_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        compare_peers.parse_args(["--peer", "x=kalah_ab -r {rule}"])
    assert stop.value.code == 2
    assert "unknown placeholder" in capsys.readouterr().err


@pytest.mark.parametrize("text, answer", [
    ("value -2 move 1 nodes 55 seconds 0.000", dict(value=-2, move=1, nodes=55)),
    ("Value: +10, best move = 3, nodes=1,234,567", dict(value=10, move=3, nodes=1234567)),
    ('{"move": 1, "value": 2, "nodes": 1903, "nodes_per_second": 5}',
     dict(value=2, move=1, nodes=1903)),
    ("solved in 3 s", dict(value=None, move=None, nodes=None)),
])
def test_a_peer_answer_is_read_from_its_output(text, answer):
    assert compare_peers.read_answer(text) == answer


def test_our_row_is_read_from_the_solve_table():
    table = ("Kalah(6,4), table 1024 MB, endgame tables: none, enhanced cutoffs: swing > 30\n"
             "rule              threads    value  move           nodes  Mnodes/s  seconds   cpu s\n"
             "capture_empty           1      +10     3      80,366,938      5.80    13.86   13.80\n"
             "no-capture-empty        2       +8     3     240,963,736      5.50    43.81   43.70\n")
    assert compare_peers.read_solve_kalah(table, "no-capture-empty") == \
        dict(value=8, move=3, nodes=240963736)
    with pytest.raises(SystemExit):
        compare_peers.read_solve_kalah(table.replace("capture_empty", "x"), "capture_empty")


def test_a_peer_is_timed_against_ours_rule_by_rule_and_must_agree(capsys):
    """Our own command line stands in for the peer (a real process, its real answer), but it
    is given no rule, so it always plays capture_empty: on Kalah(2,4) it agrees under that
    rule (-12) and the run stops at no-capture-empty, where ours says -10."""
    peer = (f"{sys.executable} -m solver best mancala --pits {{pits}} --stones {{stones}} "
            f"--exact --no-tables --table-mb 16 --json")
    with pytest.raises(SystemExit, match="disagree"):
        compare_peers.main(["--peer", f"cli={peer}", "--pits", "2", "--stones", "4",
                            "--table-mb", "16", "--rules", "both", "--repeats", "1"])
    out = capsys.readouterr().out
    agreed, disagreed = [line for line in out.splitlines() if line.startswith("Kalah(2,4)")]
    assert agreed.startswith("Kalah(2,4) capture_empty") and "ratio ours/cli" in agreed
    assert "value cli -12 ours -12," in agreed and "nodes cli " in agreed
    assert disagreed.startswith("Kalah(2,4) no-capture-empty")
    assert "value cli -12 ours -10 DISAGREE" in disagreed


RUST_REPORT = ("Analysis mode: EXACT (solved to game end)\nNodes searched: 531960\n\n"
               "Result for P0 (South): {word} (perfect play ends {sign} {n} seed{s})\n"
               "Best move: pit {pit}\n")


@pytest.mark.parametrize("word, sign, n, pit, value", [
    ("WIN", "+", 6, 1, 6), ("LOSS", "-", 2, 0, -2), ("DRAW", "+", 0, 5, 0)])
def test_the_rust_solver_s_report_is_read_in_our_terms(word, sign, n, pit, value):
    """Its margin for the side to move is our value; its pits count from 0, our bins from 1."""
    text = RUST_REPORT.format(word=word, sign=sign, n=n, s="" if n == 1 else "s", pit=pit)
    assert compare_peers.rust_answer(text) == dict(value=value, move=pit + 1, nodes=531960)


def test_a_heuristic_fallback_of_the_rust_solver_is_no_answer():
    text = RUST_REPORT.format(word="WIN", sign="+", n=6, s="s", pit=1).replace(
        "EXACT (solved to game end)", "HEURISTIC (depth 11 plies)")
    with pytest.raises(SystemExit, match="cannot read an exact answer"):
        compare_peers.rust_answer(text)
