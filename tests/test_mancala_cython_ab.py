"""The Cython Mancala alpha-beta (kernels/mancala_ab.pyx) is the Numba search (kernels/alphabeta.py
over kernels/mancala.py, no endgame tables) compiled for one game, not a look-alike: for every
position, depth and table size it returns the same value and root move, counts the same nodes, TT
hits and heuristic leaves, and leaves the same transposition table and workspace behind. Its
values are also checked on their own against the brute-force minimax of tests/test_alphabeta.py
over the reference rules.

Positions are reached by random play from the start of Kalah(m, n), for both capture rules and
both sides to move.
"""
import random
from dataclasses import replace

import numpy as np
import pytest

from kernels import alphabeta as numba_ab
from kernels import alphabeta_layout as layout
from kernels import contract, mancala_layout
from kernels import mancala as numba_game
from kernels import mancala_ab as cython_ab
from solver.errors import InputError
from solver.games import mancala as reference
from solver.games.mancala import api
from solver.search.alphabeta import AlphaBeta
from tables import build as table_build
from tables import index as table_index
from tables import probe as table_probe
from test_alphabeta import minimax, minimax_to_depth, random_position

INF = layout.INFINITY
NO_TABLES = np.zeros(0, np.int8)
BOARDS = [(2, 3), (3, 2), (3, 4), (4, 4), (5, 3), (6, 4), (6, 6)]    # Kalah(m, n)
COMPARED_STATS = {name: getattr(layout, name) for name in (
    "NODES", "ROOT_MOVE", "TT_HITS", "HEURISTIC_LEAVES", "ETC_CUTOFFS", "ABORTED",
    "MAX_PLY_SEEN", "TABLE_HITS", "EXPANDED")}


def played_position(rng, m, n, capture_empty, to_move, most_plies=None):
    """A position of Kalah(m, n) reached by random play from the start, not over, ``to_move``
    (A = 0, B = 1) to move."""
    most_plies = 8 * m if most_plies is None else most_plies
    for _ in range(1000):
        pos = reference.new_game(reference.Rules(m, n, capture_empty))
        for _ in range(rng.randrange(most_plies + 1)):
            if reference.is_over(pos):
                break
            pos = reference.apply(pos, rng.choice(reference.legal_actions(pos)))
        if not reference.is_over(pos) and pos.to_move == to_move:
            return pos
    raise AssertionError(f"random play in Kalah({m},{n}) never left side {to_move} to move")


def context(entries, options=0, etc_swing=None, node_limit=None, tables=None):
    """A fresh table of ``entries`` entries and a workspace with these settings (``tables``:
    a ``tables.build.InMemoryTables`` the search probes)."""
    work = layout.new_workspace()
    stats = layout.stats_of(work)
    stats[layout.PROBE_MAX] = -1
    if tables is not None:
        offsets = tables.offsets
        work[layout.MAX_PLY, layout.TABLE_OFFSETS:layout.TABLE_OFFSETS + len(offsets)] = offsets
        stats[layout.PROBE_MAX] = tables.max_level
    stats[layout.OPTIONS] = options
    stats[layout.NODE_LIMIT] = np.iinfo(np.int64).max if node_limit is None else node_limit
    if etc_swing is not None:
        stats[layout.ETC_SWING] = etc_swing
    return np.zeros((entries, 4), np.uint64), work


def numba_args(state, tt, work, tables=None):
    mask0, mask1 = numba_game.key_mask(state)
    return (numba_game.expand, numba_game.bounds, numba_game.store_difference, numba_game.score,
            numba_ab.no_probe if tables is None else table_probe.probe, mask0, mask1, tt, work,
            NO_TABLES if tables is None else tables.data)


def cython_args(state, tt, work, tables=None):
    mask0, mask1 = numba_game.key_mask(state)
    return mask0, mask1, tt, work, None if tables is None else tables.data


class Twins:
    """The same search context twice, one for each kernel; each call runs on both."""

    def __init__(self, entries, tables=None, **settings):
        self.numba = context(entries, tables=tables, **settings)
        self.cython = (self.numba[0].copy(), self.numba[1].copy())
        self.tables = tables

    def search(self, state, depth, alpha=-INF, beta=INF):
        return (numba_ab.search(state, depth, alpha, beta, 0, -1,
                                *numba_args(state, *self.numba, self.tables)),
                cython_ab.search(state, depth, alpha, beta, 0, -1,
                                 *cython_args(state, *self.cython, self.tables)))

    def prove(self, state, guess):
        return (numba_ab.prove(state, guess, *numba_args(state, *self.numba, self.tables)),
                cython_ab.prove(state, guess, *cython_args(state, *self.cython, self.tables)))

    def exact_line(self, state, value, limit=200):
        lines = np.zeros(limit, np.int64), np.zeros(limit, np.int64)
        lengths = (numba_ab.exact_line(state, value, lines[0],
                                       *numba_args(state, *self.numba, self.tables)),
                   cython_ab.exact_line(state, value, lines[1],
                                        *cython_args(state, *self.cython, self.tables)))
        return tuple(list(line[:max(n, 0)]) + [n] for line, n in zip(lines, lengths))

    def table_move(self, state):
        mask0, mask1 = numba_game.key_mask(state)
        return (numba_ab._table_move(state, mask0, mask1, self.numba[0]),
                cython_ab.table_move(state, mask0, mask1, self.cython[0]))

    def assert_same(self, results, what):
        numba_result, cython_result = results
        assert cython_result == numba_result, what
        numba_stats, cython_stats = (layout.stats_of(w) for _, w in (self.numba, self.cython))
        for name, slot in COMPARED_STATS.items():
            assert cython_stats[slot] == numba_stats[slot], f"stats {name}: {what}"
        assert np.array_equal(self.cython[0], self.numba[0]), f"transposition table: {what}"
        assert np.array_equal(self.cython[1], self.numba[1]), f"workspace: {what}"


def describe(pos, *settings):
    return " ".join([reference.to_text(pos), f"capture_empty={pos.capture_empty}",
                     *map(str, settings)])


# --- the game functions and the constants --------------------------------------------------------

def test_the_compiled_constants_are_those_of_the_layout_modules():
    for name, value in cython_ab.COMPILED_CONSTANTS.items():
        source = next(m for m in (contract, layout, mancala_layout, table_index)
                      if hasattr(m, name))
        assert getattr(source, name) == value, name


@pytest.mark.parametrize("m,n", BOARDS)
@pytest.mark.parametrize("capture_empty", [True, False])
def test_the_game_functions_give_what_kernels_mancala_gives(rng, m, n, capture_empty):
    numba_row, cython_row = np.zeros((2, contract.EXPANSION_WIDTH), np.int64)
    numba_moves, cython_moves = np.zeros((2, m), np.int64)
    for _ in range(30):
        pos = played_position(rng, m, n, capture_empty, rng.randrange(2))
        state = api.to_packed(pos)
        count = numba_game.expand(state, numba_row)
        assert cython_ab.game_expand(state, cython_row) == count
        for block in (contract.MOVE, contract.INFO, contract.CHILD0, contract.CHILD1):
            assert list(cython_row[block:block + count]) == list(numba_row[block:block + count])
        assert cython_ab.game_bounds(state) == numba_game.bounds(state)
        assert cython_ab.game_store_difference(state) == numba_game.store_difference(state)
        assert cython_ab.game_score(state) == numba_game.score(state)
        assert cython_ab.game_key_mask(state) == numba_game.key_mask(state)
        count = numba_game.legal_moves(state, numba_moves)
        assert cython_ab.game_legal_moves(state, cython_moves) == count
        assert list(cython_moves[:count]) == list(numba_moves[:count])
        for lane in numba_moves[:count]:
            assert cython_ab.game_play(state, int(lane)) == numba_game.play(state, int(lane))


# --- the move order, on both kernels ------------------------------------------------------------

@pytest.mark.parametrize("facing, order", [
    (8, [1, 6, 4]),     # pit 1 captures 8 + 1 (BIG_GAIN or more): before the extra turn of pit 6
    (3, [6, 1, 4]),     # a capture of 3 + 1 comes after it, by what it banks
])
def test_moves_are_tried_big_gains_then_extra_turns_then_by_what_they_bank(facing, order):
    assert layout.BIG_GAIN == 5
    pos = reference.from_text(f"1,0,0,2,0,1/1,0,0,0,{facing},0 0-0 A")    # pit 11 faces pit 2
    state = api.to_packed(pos)
    twins = Twins(4096)
    twins.assert_same(twins.search(state, 1), describe(pos))
    for _, work in (twins.numba, twins.cython):     # the root's row, as the search sorted it
        lanes = work[0, contract.MOVE:contract.MOVE + 3]
        assert [api.move_of(int(lane), 0, 6) for lane in lanes] == order


@pytest.mark.parametrize("capture_empty, order", [
    (True, [5, 4, 2, 1]),   # after the capture, the moves that bank nothing: fewest stones first
    (False, [5, 1, 2, 4]),  # no hint under this rule: pit order (history is still empty)
])
def test_moves_that_bank_the_same_are_tried_by_the_game_s_hint(capture_empty, order):
    pos = replace(reference.from_text("4,2,0,1,1,0/1,1,1,1,1,1 0-0 A"),
                  capture_empty=capture_empty)
    state = api.to_packed(pos)
    twins = Twins(4096)
    twins.assert_same(twins.search(state, 1), describe(pos))
    for _, work in (twins.numba, twins.cython):
        lanes = work[0, contract.MOVE:contract.MOVE + 4]
        assert [api.move_of(int(lane), 0, 6) for lane in lanes] == order


# --- the search, kernel against kernel -----------------------------------------------------------

@pytest.mark.parametrize("m,n", BOARDS)
@pytest.mark.parametrize("capture_empty", [True, False])
def test_depth_limited_searches_give_the_same_value_move_nodes_and_table(rng, m, n,
                                                                         capture_empty):
    """Depths 1..9; a table of 16 entries (buckets fill and entries are replaced) and one of 4096."""
    for to_move in (0, 1):
        pos = played_position(rng, m, n, capture_empty, to_move)
        state = api.to_packed(pos)
        for entries in (16, 4096):
            for depth in range(1, 10):
                twins = Twins(entries)
                twins.assert_same(twins.search(state, depth), describe(pos, entries, depth))


@pytest.mark.parametrize("options", [layout.NO_TABLE, layout.NO_ORDERING, layout.NO_ETC,
                                     layout.NO_TABLE | layout.NO_ORDERING],
                         ids=["no-tt", "no-order", "no-etc", "bare"])
def test_searches_with_parts_switched_off_stay_the_same(rng, options):
    for m, n in BOARDS[2:]:
        pos = played_position(rng, m, n, rng.random() < 0.5, rng.randrange(2))
        for depth in (3, 6):
            twins = Twins(1024, options=options)
            twins.assert_same(twins.search(api.to_packed(pos), depth), describe(pos, depth))


def test_enhanced_cutoffs_tried_at_every_node_stay_the_same(rng):
    """ETC swing threshold 0: the cutoffs fire often, and fire alike."""
    cutoffs = 0
    for m, n in BOARDS[2:]:
        pos = played_position(rng, m, n, rng.random() < 0.5, rng.randrange(2))
        state = api.to_packed(pos)
        twins = Twins(1024, etc_swing=0)
        for depth in range(1, 9):          # deepening on one table: its entries cut children
            twins.assert_same(twins.search(state, depth), describe(pos, depth))
        cutoffs += int(layout.stats_of(twins.cython[1])[layout.ETC_CUTOFFS])
    assert cutoffs > 0


def test_iterative_deepening_on_one_table_stays_the_same(rng):
    """Later searches take bounds, moves and history from the earlier ones."""
    for m, n in BOARDS:
        pos = played_position(rng, m, n, rng.random() < 0.5, rng.randrange(2))
        state = api.to_packed(pos)
        twins = Twins(256)
        for depth in range(1, 11):
            twins.assert_same(twins.search(state, depth), describe(pos, depth))
            twins.assert_same(twins.table_move(state), describe(pos, "table move", depth))


def test_narrow_windows_stay_the_same(rng):
    for m, n in BOARDS[2:]:
        pos = played_position(rng, m, n, rng.random() < 0.5, rng.randrange(2))
        state = api.to_packed(pos)
        twins = Twins(512)
        for alpha in range(-6, 7, 3):
            twins.assert_same(twins.search(state, 5, alpha, alpha + 1), describe(pos, alpha))


def test_a_node_limit_stops_both_at_the_same_node(rng):
    for m, n in BOARDS[3:]:
        pos = played_position(rng, m, n, rng.random() < 0.5, rng.randrange(2), most_plies=4)
        state = api.to_packed(pos)
        for limit in (1, 50, 700):
            twins = Twins(256, node_limit=limit)
            twins.assert_same(twins.search(state, 9), describe(pos, limit))
            assert layout.stats_of(twins.cython[1])[layout.ABORTED] == 1
            twins = Twins(256, node_limit=limit)
            twins.assert_same(twins.prove(state, 0), describe(pos, "prove", limit))


def small_endgame(rng, capture_empty):
    pos = random_position(rng, rng.randrange(2, 7), rng.randrange(2, 11), rng.randrange(2))
    return replace(pos, capture_empty=capture_empty)


@pytest.mark.parametrize("capture_empty", [True, False])
def test_exact_proofs_and_lines_of_small_endgames_stay_the_same(rng, capture_empty):
    """MTD(f) from a good and a bad guess, then the optimal line, on one table."""
    for _ in range(25):
        pos = small_endgame(rng, capture_empty)
        state = api.to_packed(pos)
        twins = Twins(rng.choice([16, 1024]))
        for guess in (0, 9):
            twins.assert_same(twins.prove(state, guess), describe(pos, "guess", guess))
        value = twins.prove(state, 0)[1][0]
        twins.assert_same(twins.exact_line(state, value), describe(pos, "line"))
        twins.assert_same(twins.search(state, layout.EXACT), describe(pos, "EXACT"))


def test_exact_searches_of_played_endgames_stay_the_same(rng):
    """Late positions of real games (random play deep into Kalah(4, 3) and Kalah(5, 3))."""
    for m, n in ((4, 3), (5, 3)):
        for to_move in (0, 1):
            pos = played_position(rng, m, n, rng.random() < 0.5, to_move, most_plies=40)
            state = api.to_packed(pos)
            twins = Twins(4096)
            twins.assert_same(twins.prove(state, 0), describe(pos))
            value = twins.prove(state, 0)[1][0]
            twins.assert_same(twins.exact_line(state, value), describe(pos, "line"))


# --- the driver and best_move on both backends ---------------------------------------------------

def comparable(found) -> dict:
    answer = found.to_dict()
    for timing in ("seconds", "nodes_per_second"):
        del answer[timing]
    return answer


@pytest.mark.parametrize("m,n", BOARDS[2:])
@pytest.mark.parametrize("capture_empty", [True, False])
def test_best_move_gives_the_same_answer_on_both_backends(rng, m, n, capture_empty):
    """Move, value, line, node count: the whole answer, to a depth and exact."""
    for to_move in (0, 1):
        pos = played_position(rng, m, n, capture_empty, to_move)
        rules = reference.Rules(m, n, capture_empty)
        for depth in (1, 4, 8):
            numba, cython = (api.best_move(pos, rules, depth=depth, backend=b, table_mb=1)
                             for b in api.BACKENDS)
            assert comparable(cython) == comparable(numba), describe(pos, depth)
    late = played_position(rng, m, n, capture_empty, rng.randrange(2), most_plies=12 * m)
    if sum(late.pits) <= 16:
        numba, cython = (api.best_move(late, rules, exact=True, all_moves=True, tables=False,
                                       backend=b) for b in api.BACKENDS)
        assert comparable(cython) == comparable(numba), describe(late, "exact")


def test_an_unknown_backend_is_refused():
    with pytest.raises(InputError, match="backend"):
        api.best_move(depth=2, backend="fortran")


# --- with endgame tables: tables/probe.py's probe compiled in ------------------------------------

@pytest.fixture(scope="module", params=[(4, True), (5, False), (6, True)],
                ids=lambda p: f"{p[0]}pits-{'capture_empty' if p[1] else 'standard'}")
def small_tables(request):
    """Every level up to 8 stones of an m-pit board, in memory."""
    m, capture_empty = request.param
    return m, capture_empty, table_build.build_in_memory(8, capture_empty, m)


def test_the_compiled_probe_reads_what_tables_probe_reads(rng, small_tables):
    m, capture_empty, tables = small_tables
    for _ in range(300):
        pos = random_position(rng, m, rng.randrange(2, 12))   # both sides hold stones
        state = api.to_packed(replace(pos, capture_empty=capture_empty))
        assert cython_ab.game_probe(state, tables.data, tables.offsets) == \
            table_probe.probe(state, tables.data, tables.offsets), describe(pos)
    cut = tables.offsets[:5]                   # levels 1..3 only: level 4 is not held
    pos = random_position(rng, m, 4)
    state = api.to_packed(replace(pos, capture_empty=capture_empty))
    assert cython_ab.game_probe(state, tables.data, cut) == layout.NO_ENTRY


def test_searches_that_probe_endgame_tables_stay_the_same(rng, small_tables):
    """Exact proofs, lines and depth-limited searches of positions with more stones than the
    tables hold: the same values, nodes, table hits, transposition table and workspace."""
    m, capture_empty, tables = small_tables
    hits = 0
    for _ in range(12):
        stones = rng.randrange(9, 15)
        pos = replace(random_position(rng, m, stones), capture_empty=capture_empty)
        state = api.to_packed(pos)
        twins = Twins(rng.choice([16, 1024]), tables=tables)
        twins.assert_same(twins.search(state, rng.randrange(1, 9)), describe(pos, "depth"))
        for guess in (0, 7):
            twins.assert_same(twins.prove(state, guess), describe(pos, "guess", guess))
        value = twins.prove(state, 0)[1][0]
        if stones <= 10:                        # brute force stays quick
            assert value == minimax(pos, capture_empty), describe(pos)
        twins.assert_same(twins.exact_line(state, value), describe(pos, "line"))
        hits += layout.stats_of(twins.cython[1])[layout.TABLE_HITS]
    assert hits > 0


def test_a_capture_that_banks_enough_settles_a_node_before_any_child_is_searched():
    """Below the root, a move's guaranteed value (what it banks, and the stones left to play
    for) that already reaches beta ends the node: pit 1 sows into the empty pit 2 and captures
    the 10 stones of pit 11 with its own, 11 banked with 2 stones left: at least +9."""
    pos = reference.from_text("1,0,0,0,0,1/0,0,0,0,10,1 0-0 A")
    state = api.to_packed(pos)
    truth = minimax(pos, pos.capture_empty)
    for kernel, args in ((numba_ab, numba_args), (cython_ab, cython_args)):
        tt, work = context(1024)
        value = kernel.search(state, layout.EXACT, 7, 8, 1, -1, *args(state, tt, work))
        assert value == 9 <= truth      # a fail-high: a lower bound on the value
        assert layout.stats_of(work)[layout.NODES] == 1     # no child was searched
        tt, work = context(1024)        # at the root the moves are searched: it must name one
        assert kernel.search(state, layout.EXACT, 7, 8, 0, -1, *args(state, tt, work)) >= 8
        assert layout.stats_of(work)[layout.NODES] > 1


def test_a_node_just_above_the_tables_is_settled_by_a_child_they_value(rng, small_tables):
    """Below the root, a node at most PEEK_MARGIN stones above the tables first looks at the
    children known without a search (held by the tables, or finished games, which the floor
    values first): when one of them reaches beta, the node returns its value at once, one node
    on both kernels."""
    m, capture_empty, tables = small_tables
    settled = 0
    for _ in range(300):
        stones = rng.randrange(tables.max_level + 1, tables.max_level + layout.PEEK_MARGIN + 1)
        pos = replace(random_position(rng, m, stones), capture_empty=capture_empty)
        state = api.to_packed(pos)
        known = []          # those children's values, from the side to move's view
        for move in reference.legal_actions(pos):
            lane = api.lane_of(move, pos.to_move, m)
            child, info = cython_ab.game_play(state, lane)
            banked, swing = cython_ab.game_bounds(child)
            if info & contract.GAME_OVER:
                value = cython_ab.game_score(child)
            elif swing <= tables.max_level:
                value = banked + table_probe.probe(child, tables.data, tables.offsets)
            else:
                continue
            known.append(value if info & contract.EXTRA_TURN else -value)
        if not known:
            continue
        beta = max(known)
        for kernel, args in ((numba_ab, numba_args), (cython_ab, cython_args)):
            tt, work = context(1024, tables=tables)
            value = kernel.search(state, layout.EXACT, beta - 1, beta, 1, -1,
                                  *args(state, tt, work, tables))
            assert value == beta, describe(pos)
            assert layout.stats_of(work)[layout.NODES] == 1, describe(pos)
        settled += 1
    assert settled >= 10


def test_best_move_with_tables_gives_the_same_answer_on_both_backends(tmp_path):
    from solver import tables
    tables.build(10, directory=tmp_path, pits=4)
    rules = reference.Rules(4, 3)
    for plies in (0, 1, 2, 4):
        pos = reference.new_game(rules)
        for _ in range(plies):
            pos = reference.apply(pos, random.Random(plies).choice(reference.legal_actions(pos)))
        numba, cython = (api.best_move(pos, rules, exact=True, all_moves=True,
                                       tables=str(tmp_path), backend=b) for b in api.BACKENDS)
        assert cython.table_levels == 10 and cython.table_hits > 0
        assert comparable(cython) == comparable(numba), reference.to_text(pos)


# --- values on their own: brute force over the reference rules -----------------------------------

def cython_engine(table_mb=1):
    return AlphaBeta(api.kernel_game(backend="cython"), table_mb)


def assert_small_endgames_solve_as_brute_force(searcher, rng, capture_empty, count=40):
    """``searcher`` proves the minimax value of random small endgames, and the move it names
    achieves that value."""
    for _ in range(count):
        pos = small_endgame(rng, capture_empty)
        state = api.to_packed(pos)
        found = searcher.solve(state)
        assert found.exact and found.value == minimax(pos, capture_empty), describe(pos)
        if found.move is not None:
            assert searcher.move_value(state, found.move) == found.value, describe(pos)


@pytest.mark.parametrize("capture_empty", [True, False])
def test_exact_values_equal_brute_force_minimax(rng, capture_empty):
    assert_small_endgames_solve_as_brute_force(cython_engine(), rng, capture_empty)


def test_depth_limited_values_equal_depth_limited_minimax(rng):
    for _ in range(40):
        pos = random_position(rng, rng.randrange(2, 7), rng.randrange(4, 16))
        depth = rng.randrange(1, 5)
        found = cython_engine().iterate(api.to_packed(pos), max_depth=depth)
        assert found.value == minimax_to_depth(pos, found.depth, True), describe(pos, depth)


@pytest.mark.parametrize("m,n", [(2, 2), (3, 2), (3, 3)])
def test_small_boards_from_the_start_have_their_brute_force_value(m, n):
    for capture_empty in (True, False):
        rules = reference.Rules(m, n, capture_empty)
        found = api.best_move(None, rules, exact=True, tables=False)
        assert found.value == minimax(reference.new_game(rules), capture_empty)


# --- what the Python entry points refuse (they hand raw pointers to C) ---------------------------

def test_bad_tables_workspaces_and_states_are_refused():
    state = api.to_packed(api.new_game())
    masks = numba_game.key_mask(state)
    tt, work = context(16)
    with pytest.raises(ValueError, match="power of two"):
        cython_ab.search(state, 3, -INF, INF, 0, -1, *masks, np.zeros((12, 4), np.uint64), work)
    with pytest.raises(ValueError, match="workspace"):
        cython_ab.search(state, 3, -INF, INF, 0, -1, *masks, tt, np.zeros((4, 384), np.int64))
    layout.stats_of(work)[layout.PROBE_MAX] = 5
    with pytest.raises(ValueError, match="PROBE_MAX"):     # tables asked for, none given
        cython_ab.prove(state, 0, *masks, tt, work)
    with pytest.raises(ValueError, match="pits per side"):
        cython_ab.game_score((0, 0))
    with pytest.raises(ValueError, match="lane"):
        cython_ab.game_play(state, 6)


# --- more of the same, for a longer run ----------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("m,n", BOARDS + [(5, 5), (6, 3)])
@pytest.mark.parametrize("capture_empty", [True, False])
def test_many_more_positions_to_depth_twelve_stay_the_same(rng, m, n, capture_empty):
    for _ in range(6):
        for to_move in (0, 1):
            pos = played_position(rng, m, n, capture_empty, to_move, most_plies=12 * m)
            state = api.to_packed(pos)
            for entries in (64, 1 << 16):
                twins = Twins(entries, etc_swing=rng.choice([None, 0, 8]))
                for depth in range(1, 13):
                    twins.assert_same(twins.search(state, depth), describe(pos, entries, depth))


@pytest.mark.slow
@pytest.mark.parametrize("m,n", [(3, 3), (4, 3), (4, 4), (5, 3)])
@pytest.mark.parametrize("capture_empty", [True, False])
def test_whole_small_games_are_solved_the_same(m, n, capture_empty):
    rules = reference.Rules(m, n, capture_empty)
    numba, cython = (api.best_move(None, rules, exact=True, all_moves=True, tables=False,
                                   backend=b) for b in api.BACKENDS)
    assert comparable(cython) == comparable(numba)


@pytest.mark.slow
def test_the_bench_positions_to_depth_twenty_are_searched_the_same():
    """`solver bench mancala`'s alpha-beta workload (its fixed positions, iterative deepening to
    20 sowings on a 64 MB table) on both backends: the same answers, nodes and tables."""
    from solver.games.mancala.commands import bench_positions
    for entry in bench_positions():
        pos = replace(reference.from_text(entry["position"]), capture_empty=entry["capture_empty"])
        state = api.to_packed(pos)
        numba, cython = (AlphaBeta(api.kernel_game(backend=b), 64) for b in api.BACKENDS)
        found = [engine.iterate(state, max_depth=20) for engine in (numba, cython)]
        numba_found, cython_found = ((f.move, f.value, f.pv, f.nodes,
                                      [(depth, value, nodes) for depth, value, nodes, _ in
                                       f.iterations]) for f in found)
        assert cython_found == numba_found, describe(pos)
        assert np.array_equal(cython.tt, numba.tt) and np.array_equal(cython.work, numba.work)
