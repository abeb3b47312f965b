"""Funkel Munkel reference rules, one rule per test, in the rulebook's order.

Rails are drawn entrance first, one token per cell: ``.`` no cart, ``0``..``3`` a colour's cart,
``C`` a common cart, followed by the gem's letter when loaded (g grey, b blue, p purple, n green,
k pink, y yellow). Pinwheel rail k is ``c0* c1 c2* c3`` (``*`` = under a shaft), so rail k's
shafts are 2k (over c0) and 2k+1 (over c2).
"""
import json
import math
import random
from collections import Counter
from dataclasses import replace
from itertools import permutations

import pytest

from documents import DELETE, edit
from solver.errors import InputError
from solver.games import get as game_record
from solver.games.funkel import (
    COMMON, GEM_COUNTS, GEM_LETTERS, GEMS, LAYOUTS, PASS, Cart, Place, PublicView, Push, Rules,
    State, apply, colours_of, draw, from_json, is_over, legal_actions, new_game, public_view,
    result, sample_hidden, to_json, unseen_places, unseen_pool, winner)

GREY, BLUE, PURPLE, GREEN, PINK, YELLOW = range(6)


# --- pictures ------------------------------------------------------------------------------------

def cart_of(token: str) -> Cart | None:
    if token == ".":
        return None
    kind = COMMON if token[0] == "C" else int(token[0])
    return Cart(kind, GEM_LETTERS.index(token[1]) if len(token) > 1 else None)


def token_of(cart: Cart | None, gems: bool = True) -> str:
    if cart is None:
        return "."
    kind = "C" if cart.kind == COMMON else str(cart.kind)
    return kind + (GEM_LETTERS[cart.gem] if gems and cart.gem is not None else "")


def rail(state: State, r: int, gems: bool = True) -> str:
    """Rail r as a picture, entrance first."""
    return " ".join(token_of(state.cells[c], gems) for c in state.rules.board.rails[r])


def gems_of(letters: str) -> tuple[int, ...]:
    return tuple(GEM_LETTERS.index(x) for x in letters)


def display_of(letters: str) -> tuple[int, ...]:
    counts = Counter(gems_of(letters))
    return tuple(counts[g] for g in range(len(GEMS)))


def position(players=4, layout="pinwheel", rails=None, shafts=None, hands=None, supply=None,
             displays=None, to_move=0, pushes=0, **rule_options) -> State:
    """A set-up game (seed 0) with the named rails, shafts (letters, bottom first), hands, supply
    and displays (letters) replaced."""
    state = new_game(Rules(players, layout, **rule_options), seed=0)
    cells = list(state.cells)
    for r, picture in (rails or {}).items():
        for cell, token in zip(state.rules.board.rails[r], picture.split(), strict=True):
            cells[cell] = cart_of(token)
    shaft_gems = list(state.shafts)
    for s, letters in (shafts or {}).items():
        shaft_gems[s] = gems_of(letters)
    all_displays = list(state.displays)
    for colour, letters in (displays or {}).items():
        all_displays[colour] = display_of(letters)
    return replace(state, cells=tuple(cells), shafts=tuple(shaft_gems),
                   hands=tuple(hands) if hands else state.hands,
                   supply=state.supply if supply is None else supply,
                   displays=tuple(all_displays), to_move=to_move, pushes=pushes)


NO_SHAFTS = {s: "" for s in range(8)}


def random_game(rules: Rules, rng: random.Random, seed: int):
    """Every state of one game played with random legal actions, to the end."""
    state = new_game(rules, seed)
    states = [state]
    while not is_over(state):
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


ALL_RULES = [Rules(p, layout) for layout in LAYOUTS for p in (2, 3, 4)]


# --- the game -------------------------------------------------------------------------------------

def test_game_is_registered_with_its_rules_version():
    info = game_record("funkel").info
    assert (info.min_players, info.max_players, info.rules_version) == (2, 4, 1)
    assert info.chance and not info.perfect_information


# --- set-up ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
def test_board_has_four_rails_sixteen_cells_eight_shafts(layout):
    board = LAYOUTS[layout]
    assert len(board.rails) == 4
    assert board.cell_count == 16 == len({c for r in board.rails for c in r})
    assert len(set(board.shaft_cells)) == 8
    starting = set(board.colour_cells) | set(board.common_cells)
    assert len(starting) == 8 and not starting & set(board.shaft_cells)


def test_pinwheel_rails_never_cross_and_alternate_shafts():
    board = LAYOUTS["pinwheel"]
    assert sum(len(r) for r in board.rails) == 16     # no cell on two rails
    for r in board.rails:   # ENTRANCE -> c0 (shaft) -> c1 -> c2 (shaft) -> c3 -> EXIT
        assert [c in board.shaft_cells for c in r] == [True, False, True, False]


def test_crossing_layout_shares_its_four_shafted_crossings():
    board = LAYOUTS["crossing"]
    on_rails = Counter(c for r in board.rails for c in r)
    crossings = {c for c, n in on_rails.items() if n == 2}
    assert len(crossings) == 4 and crossings <= set(board.shaft_cells)
    for r in board.rails:   # entrance: shaft, crossing: shaft, middle, crossing: shaft, last
        assert [c in board.shaft_cells for c in r] == [True, True, False, True, False]
        assert [c in crossings for c in r] == [False, True, False, True, False]


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_setup_56_gems_seven_per_shaft(rules):
    state = new_game(rules, seed=7)
    assert [len(s) for s in state.shafts] == [7] * 8
    assert Counter(g for s in state.shafts for g in s) == dict(enumerate(GEM_COUNTS))
    assert sum(GEM_COUNTS) == 56


@pytest.mark.parametrize("layout", LAYOUTS)
def test_setup_eight_empty_carts_on_the_cells_without_shafts(layout):
    state = new_game(Rules(4, layout), seed=7)
    board = state.rules.board
    carts = {c: cart for c, cart in enumerate(state.cells) if cart}
    assert set(carts) == set(range(16)) - set(board.shaft_cells)
    assert all(cart.gem is None for cart in carts.values())
    assert [carts[c].kind for c in board.colour_cells] == [0, 1, 2, 3]
    assert [carts[c].kind for c in board.common_cells] == [COMMON] * 4


def test_setup_four_players_hold_three_carts_each_two_common_beside():
    state = new_game(Rules(4), seed=7)
    assert state.hands == (3, 3, 3, 3) and state.supply == 2


def test_setup_two_players_hold_six_carts_of_two_colours():
    state = new_game(Rules(2), seed=7)
    for seat in (0, 1):
        assert len(colours_of(seat, 2)) == 2
        assert sum(state.hands[c] for c in colours_of(seat, 2)) == 6
    assert state.supply == 2


@pytest.mark.parametrize("layout", LAYOUTS)
def test_setup_three_players_unused_colour_carts_are_common(layout):
    state = new_game(Rules(3, layout), seed=7)
    board = state.rules.board
    assert state.cells[board.colour_cells[3]].kind == COMMON    # its board cart included
    assert state.hands == (3, 3, 3, 0)
    assert state.supply == 2 + 3
    assert sum(1 for c in state.cells if c and c.kind == COMMON) == 5


def test_setup_is_seeded():
    assert new_game(Rules(3), seed=11) == new_game(Rules(3), seed=11)
    assert new_game(Rules(3), seed=11).shafts != new_game(Rules(3), seed=12).shafts


def test_seat_zero_starts():
    assert new_game(Rules(4), seed=1).to_move == 0


# --- pushing --------------------------------------------------------------------------------------

def test_push_moves_the_touching_block_one_cell():
    state = position(rails={0: "1 2 . C"})
    after = apply(state, Push(0, 0))
    assert rail(after, 0, gems=False) == "0 1 2 C"
    assert after.hands[0] == state.hands[0] - 1


def test_carts_behind_a_gap_stay_put():
    state = position(rails={0: "1 . 2 C"})
    assert rail(apply(state, Push(0, 0)), 0, gems=False) == "0 1 2 C"
    state = position(rails={0: ". 1 2 C"})
    assert rail(apply(state, Push(0, 0)), 0, gems=False) == "0 1 2 C"


def test_a_full_rail_pushes_its_last_cart_out_of_the_mine():
    state = position(rails={0: "1 2 3 C"}, supply=2)
    after = apply(state, Push(0, 0))
    assert rail(after, 0, gems=False) == "0 1 2 3"
    assert after.supply == 3                        # the common cart is back beside the board


def test_push_goes_through_any_entrance():
    state = position()
    assert {a.rail for a in legal_actions(state)} == {0, 1, 2, 3}
    after = apply(state, Push(2, 0))
    assert rail(after, 2, gems=False) == "0 2 . C"


def test_turns_go_round_the_table():
    state = position(players=3)
    seats = []
    for _ in range(4):
        seats.append(state.to_move)
        state = apply(state, legal_actions(state)[0])
    assert seats == [0, 1, 2, 0]


def test_apply_returns_a_new_state_and_keeps_the_old():
    state = position()
    before = to_json(state)
    apply(state, Push(0, 0))
    assert to_json(state) == before


def test_illegal_action_is_an_input_error():
    state = position()
    with pytest.raises(InputError, match="illegal action"):
        apply(state, Push(0, 1))                    # seat 0 does not own colour 1
    with pytest.raises(InputError, match="illegal action"):
        apply(state, Push(0, COMMON))               # own carts are still in hand


# --- gems -----------------------------------------------------------------------------------------

def test_an_empty_cart_under_a_shaft_takes_the_bottom_gem():
    state = position(rails={0: ". 1 . C"}, shafts={0: "bgk"})     # shaft 0: blue at the bottom
    after = apply(state, Push(0, 0))
    assert rail(after, 0) == "0b 1 . C"
    assert after.shafts[0] == gems_of("gk")


def test_a_cart_pushed_under_a_shaft_takes_its_gem():
    state = position(rails={0: "1 2 . C"}, shafts={0: "", 1: "yp"})
    after = apply(state, Push(0, 0))
    assert rail(after, 0) == "0 1 2y C"
    assert after.shafts[1] == gems_of("p")


def test_a_loaded_cart_takes_no_gem():
    state = position(rails={0: "1 2n . C"}, shafts={0: "", 1: "yp"})
    after = apply(state, Push(0, 0))
    assert rail(after, 0) == "0 1 2n C"
    assert after.shafts[1] == gems_of("yp")


def test_an_empty_shaft_drops_nothing():
    state = position(rails={0: ". 1 . C"}, shafts={0: ""})
    assert rail(apply(state, Push(0, 0)), 0) == "0 1 . C"


def test_a_cart_leaving_the_mine_gives_its_gem_to_its_colour():
    state = position(rails={1: "1 2 3 0n"}, to_move=1, hands=(0, 3, 3, 3))
    after = apply(state, Push(1, 1))
    assert after.displays[0] == display_of("n")     # Dennis thanks Izzy: seat 0 gets the gem
    assert after.hands[0] == 1                      # and his emptied cart back


def test_an_empty_cart_leaving_gives_nothing():
    state = position(rails={1: "1 2 3 0"}, to_move=1, hands=(0, 3, 3, 3))
    after = apply(state, Push(1, 1))
    assert after.displays == state.displays and after.hands[0] == 1


def test_a_common_cart_gives_its_gem_to_the_active_player():
    state = position(rails={3: "1 2 0 Cp"}, to_move=2, supply=2)
    after = apply(state, Push(3, 2))
    assert after.displays[2] == display_of("p")
    assert after.supply == 3


def test_three_players_the_unused_colours_cart_pays_the_active_player():
    state = new_game(Rules(3), seed=3)
    assert rail(state, 3) == ". C . C"            # colour 3's board cart is a common cart
    for _ in range(3):                            # seats 0, 1, 2 push it down rail 3
        state = apply(state, Push(3, state.to_move))
    unused_cart = state.cells[state.rules.board.rails[3][-1]]
    assert unused_cart.kind == COMMON and unused_cart.gem is not None
    after = apply(state, Push(3, 0))             # out it comes on seat 0's turn
    assert after.displays[0][unused_cart.gem] == 1 and after.supply == state.supply + 1


# --- whose carts ----------------------------------------------------------------------------------

def test_own_carts_first_common_carts_only_when_all_yours_are_underground():
    state = position(hands=(1, 3, 3, 3), supply=2)
    assert {a.kind for a in legal_actions(state)} == {0}
    state = position(hands=(0, 3, 3, 3), supply=2)
    assert legal_actions(state) == [Push(r, COMMON) for r in range(4)]
    after = apply(state, Push(1, COMMON))
    assert after.cells[state.rules.board.rails[1][0]].kind == COMMON and after.supply == 1


def test_pass_when_no_cart_of_yours_and_no_common_cart_is_left():
    state = position(hands=(0, 3, 3, 3), supply=0, pushes=5)
    assert legal_actions(state) == [PASS]
    after = apply(state, PASS)
    assert after.to_move == 1 and after.pushes == 5     # a pass is not a push


def test_two_players_each_push_carts_of_two_colours():
    state = position(players=2, to_move=1)
    assert {a.kind for a in legal_actions(state)} == set(colours_of(1, 2)) == {1, 3}


def test_two_players_all_six_carts_underground_before_a_common_cart():
    state = position(players=2, hands=(0, 3, 1, 3))
    assert {a.kind for a in legal_actions(state)} == {2}
    state = position(players=2, hands=(0, 3, 0, 3))
    assert {a.kind for a in legal_actions(state)} == {COMMON}


def test_two_players_colour_cart_gem_goes_to_that_colours_display():
    state = position(players=2, rails={1: "1 3 0 2b"}, to_move=1)
    after = apply(state, Push(1, 1))
    assert after.displays[2] == display_of("b")     # seat 0's second display
    assert after.hands[2] == state.hands[2] + 1


def test_two_players_choose_the_display_for_a_common_carts_gem():
    state = position(players=2, rails={0: "2 1 3 Cy"}, to_move=0)
    chosen = apply(state, Push(0, 0))
    assert chosen.pending == YELLOW and chosen.to_move == 0
    assert legal_actions(chosen) == [Place(0), Place(2)]
    after = apply(chosen, Place(2))
    assert after.displays[2] == display_of("y") and after.displays[0] == state.displays[0]
    assert after.pending is None and after.to_move == 1
    assert after.pushes == state.pushes + 1          # the choice is not a push


# --- winning --------------------------------------------------------------------------------------

def test_six_different_gems_win():
    state = position(rails={0: "1 2 3 0y"}, displays={0: "gbpnk"})
    after = apply(state, Push(0, 0))
    assert is_over(after) and winner(after) == 0 and result(after) == (1, 0, 0, 0)
    assert legal_actions(after) == []


def test_five_of_one_kind_win():
    state = position(rails={0: "1 2 3 0g"}, displays={0: "ggggb"})
    assert winner(apply(state, Push(0, 0))) == 0


def test_five_different_or_four_alike_do_not_win():
    state = position(rails={0: "1 2 3 0g"}, displays={0: "bpnk"})    # grey makes 5 different
    assert not is_over(apply(state, Push(0, 0)))
    state = position(rails={0: "1 2 3 0g"}, displays={0: "gggb"})    # grey makes 4 grey
    assert not is_over(apply(state, Push(0, 0)))


def test_a_delivery_on_another_players_turn_wins_for_the_owner():
    state = position(rails={1: "1 2 3 0y"}, displays={0: "gbpnk"}, to_move=1)
    after = apply(state, Push(1, 1))
    assert winner(after) == 0


def test_two_players_win_needs_the_goal_on_one_display():
    state = position(players=2, rails={0: "2 1 3 0y"}, displays={0: "gbp", 2: "nk"})
    after = apply(state, Push(0, 0))
    assert not is_over(after)                      # 6 different, but over two displays
    state = position(players=2, rails={0: "2 1 3 2y"}, displays={0: "gbp", 2: "gbpnk"})
    assert winner(apply(state, Push(0, 0))) == 0


def test_two_players_a_chosen_display_can_win():
    state = position(players=2, rails={0: "2 1 3 Cg"}, displays={2: "gggg"})
    chosen = apply(state, Push(0, 0))
    assert not is_over(chosen)                     # the gem is not placed yet
    assert not is_over(apply(chosen, Place(0)))
    assert winner(apply(chosen, Place(2))) == 0


# --- the end without a winner ------------------------------------------------------------------

def test_the_game_ends_when_no_gem_can_be_delivered_any_more():
    state = position(rails={0: ". 1 . C"}, shafts=NO_SHAFTS, displays={0: "gb", 1: "g"})
    assert is_over(state) and winner(state) == 0                 # most gems
    loaded = position(rails={0: ". 1 . Cp"}, shafts=NO_SHAFTS)
    assert not is_over(loaded)                                   # that gem can still come out


def test_no_winner_most_gems_then_most_colours_else_draw():
    more_colours = position(shafts=NO_SHAFTS, displays={0: "ggb", 1: "gbp", 2: "gb"})
    assert result(more_colours) == (0, 1, 0, 0)
    tied = position(shafts=NO_SHAFTS, displays={0: "gbp", 2: "kny"})
    assert result(tied) == (0.5, 0, 0.5, 0) and winner(tied) is None
    nothing = position(shafts=NO_SHAFTS)
    assert result(nothing) == (0.25,) * 4


def test_two_players_no_winner_counts_both_displays():
    state = position(players=2, shafts=NO_SHAFTS, displays={0: "gb", 2: "p", 1: "gbk"})
    assert result(state) == (0.5, 0.5)             # 3 gems and 3 colours each
    state = position(players=2, shafts=NO_SHAFTS, displays={0: "gb", 2: "pn", 1: "gbk"})
    assert winner(state) == 0


def test_the_game_ends_after_200_pushes():
    assert Rules(4).max_pushes == 200
    state = position(pushes=199, displays={3: "g"})
    after = apply(state, legal_actions(state)[0])
    assert is_over(after) and winner(after) == 3


def test_a_win_on_the_last_push_still_counts():
    state = position(rails={0: "1 2 3 0y"}, displays={0: "gbpnk", 1: "ggbbppnn"}, pushes=199)
    assert winner(apply(state, Push(0, 0))) == 0


def test_a_pending_display_choice_is_made_before_the_push_limit_ends_the_game():
    state = position(players=2, rails={0: "2 1 3 Cy"}, pushes=199)
    chosen = apply(state, Push(0, 0))
    assert not is_over(chosen) and legal_actions(chosen) == [Place(0), Place(2)]
    assert is_over(apply(chosen, Place(0)))


# --- the crossing layout --------------------------------------------------------------------------

def test_crossing_a_cart_pushed_onto_a_crossing_leaves_along_the_other_rail():
    board = LAYOUTS["crossing"]
    column, row = board.rails[0], board.rails[2]          # column 1 N->S, row 1 E->W
    crossing = (set(column) & set(row)).pop()
    assert column.index(crossing) == 1 and row.index(crossing) == 3
    far_shaft = board.shaft_at(board.rails[1][0])              # one gem left: not yet over
    state = position(layout="crossing", shafts=NO_SHAFTS | {far_shaft: "g"})
    cells = list(state.cells)
    cells[column[0]] = Cart(1)                                 # colour 1 at column 1's entrance
    cells[row[0]], cells[row[1]] = Cart(3), Cart(3)            # row 1 filled up to the crossing
    state = replace(state, cells=tuple(cells))
    state = apply(state, Push(0, 0))                           # seat 0 down column 1
    assert state.cells[crossing] == Cart(1)
    state = apply(state, Push(2, 1))                           # seat 1 along row 1: a full block
    assert state.cells[row[-1]] == Cart(1)                     # the cart took the row's last cell
    assert state.supply == 3                                   # the row's common cart came out
    state = apply(apply(state, Push(0, 2)), Push(2, 3))        # seat 3 along row 1 again
    assert state.hands[1] == position(layout="crossing").hands[1]   # colour 1's cart is back


def test_crossing_gems_fall_into_carts_pushed_onto_crossings():
    board = LAYOUTS["crossing"]
    column = board.rails[0]
    entrance, crossing = board.shaft_at(column[0]), board.shaft_at(column[1])
    state = position(layout="crossing", shafts={entrance: "gg", crossing: "by"})
    cells = list(state.cells)
    cells[column[0]] = Cart(1)
    after = apply(replace(state, cells=tuple(cells)), Push(0, 0))
    assert after.cells[column[1]] == Cart(1, BLUE) and after.cells[column[0]] == Cart(0, GREY)


# --- what is seen ---------------------------------------------------------------------------------

def test_view_shows_carts_loads_shaft_heights_and_tops():
    state = position(rails={0: "0b 1 . C"}, shafts={0: "gkp", 1: ""})
    view = public_view(state)
    cart = view.cells[state.rules.board.rails[0][0]]
    assert (cart.kind, cart.loaded, cart.gem) == (0, True, None)  # loaded, gem unseen
    assert (view.shafts[0].height, view.shafts[0].top) == (3, PURPLE)
    assert (view.shafts[1].height, view.shafts[1].top) == (0, None)
    assert (view.hands, view.supply, view.displays, view.to_move) == \
        (state.hands, state.supply, state.displays, state.to_move)


def test_view_hides_exactly_cart_gems_and_gems_below_the_tops():
    state = position(rails={0: "0b 1 . C"}, shafts={0: "gkp"})
    hidden_changed = position(rails={0: "0y 1 . C"}, shafts={0: "kgp"})
    top_changed = position(rails={0: "0b 1 . C"}, shafts={0: "gkb"})
    assert public_view(state) == public_view(hidden_changed)
    assert public_view(state) != public_view(top_changed)


def test_hidden_shafts_option_hides_the_tops_too():
    state = position(shafts={0: "gkp"}, hidden_shafts=True)
    assert public_view(state).shafts[0].top is None
    assert public_view(state) == public_view(replace(state, shafts=(gems_of("gkb"),) +
                                                     state.shafts[1:]))


def test_a_shafts_last_face_up_gem_is_seen_falling_into_a_cart():
    state = position(rails={0: ". 1 . C"}, shafts={0: "n"})
    cart = public_view(apply(state, Push(0, 0))).cells[0]
    assert (cart.loaded, cart.gem) == (True, GREEN)
    hidden = position(rails={0: ". 1 . C"}, shafts={0: "n"}, hidden_shafts=True)
    assert public_view(apply(hidden, Push(0, 0))).cells[0].gem is None


def midgame_states(rng, count=40):
    """States from random games of every player count and layout, some with hidden shafts."""
    out = []
    for i in range(count):
        rules = Rules(2 + i % 3, list(LAYOUTS)[i % 2], hidden_shafts=i % 4 == 3)
        states = random_game(rules, rng, seed=i)
        out.append(states[rng.randrange(len(states))])
    return out


def test_sampler_agrees_with_the_view(rng):
    for state in midgame_states(rng):
        view = public_view(state)
        for _ in range(5):
            sample = sample_hidden(view, rng)
            assert public_view(sample) == view
            gems = Counter(g for s in sample.shafts for g in s)
            gems += Counter(c.gem for c in sample.cells if c and c.gem is not None)
            gems += Counter({g: sum(d[g] for d in sample.displays) for g in range(6)})
            gems += Counter([sample.pending] if sample.pending is not None else [])
            assert gems == dict(enumerate(GEM_COUNTS))


def fill_displays(state: State, keep: Counter) -> State:
    """Put every gem except ``keep`` on the displays without reaching a goal: display d never gets
    gem colour d (so at most 5 colours) and at most 4 of one colour."""
    displays = [[0] * 6 for _ in range(4)]
    for gem, total in enumerate(GEM_COUNTS):
        for _ in range(total - keep[gem]):
            d = next(d for d in range(4) if d != gem and displays[d][gem] < 4)
            displays[d][gem] += 1
    return replace(state, displays=tuple(map(tuple, displays)))


def chi2_survival(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with df degrees of freedom (closed forms)."""
    half = x / 2
    if df % 2 == 0:
        return math.exp(-half) * sum(half ** i / math.factorial(i) for i in range(df // 2))
    tail = math.erfc(math.sqrt(half))
    return tail + math.exp(-half) * sum(half ** (i - 0.5) / math.gamma(i + 0.5)
                                        for i in range(1, (df - 1) // 2 + 1))


def test_sampler_is_uniform_on_a_small_case():
    # Unseen: one cart's gem, 2 gems under shaft 0's top, 1 under shaft 1's: 4 places,
    # unseen pool grey, grey, blue, pink -> 4!/2! = 12 equally likely arrangements.
    state = position(rails={1: ". 1 . Cg"}, shafts=NO_SHAFTS | {0: "bgy", 1: "ky"})
    state = fill_displays(state, keep=Counter(gems_of("ggbkyy")))   # the gems still underground
    view = public_view(state)
    assert unseen_places(view) == 4 and unseen_pool(view) == sorted(gems_of("ggbk"))
    cart = state.rules.board.rails[1][3]
    arrangements = set(permutations(gems_of("ggbk")))
    draws, rng = 200 * len(arrangements), random.Random(5)
    seen = Counter()
    for _ in range(draws):
        s = sample_hidden(view, rng)
        seen[(s.cells[cart].gem,) + s.shafts[0][:2] + s.shafts[1][:1]] += 1
    assert set(seen) == arrangements
    expected = draws / len(arrangements)
    statistic = sum((n - expected) ** 2 / expected for n in seen.values())
    assert chi2_survival(statistic, len(arrangements) - 1) > 0.001


def test_chi2_survival_matches_its_definition_at_the_median_of_two_degrees():
    # df = 2 is the exponential law with mean 2: P(X >= 2 ln 2) = 1/2; df = 1: P(X >= 0) = 1
    assert chi2_survival(2 * math.log(2), 2) == pytest.approx(0.5)
    assert chi2_survival(0.0, 1) == pytest.approx(1.0)
    assert chi2_survival(0.0, 5) == pytest.approx(1.0)


# --- positions as JSON ----------------------------------------------------------------------------

def test_json_round_trip_of_states_and_views(rng):
    for state in midgame_states(rng, count=24):
        assert from_json(to_json(state)) == state
        view = public_view(state)
        assert from_json(to_json(view)) == view
        assert isinstance(from_json(to_json(view)), PublicView)


def test_json_of_the_start_position_reads_like_the_board():
    doc = json.loads(to_json(new_game(Rules(3), seed=1)))
    assert doc["game"] == "funkel" and doc["type"] == "state" and doc["rules"]["players"] == 3
    assert doc["cells"][1] == {"kind": 0, "gem": None, "seen": False}
    assert doc["cells"][13] == {"kind": "common", "gem": None, "seen": False}
    assert all(len(s) == 7 and set(s) <= set(GEMS) for s in doc["shafts"])



BAD_FIELDS = [
    (("game",), "chess", "'game'"),
    (("rules_version",), 2, "'rules_version'"),
    (("type",), "board", "'type'"),
    (("rules", "players"), 5, "'rules.players'"),
    (("rules", "layout"), "spiral", "'rules.layout'"),
    (("rules", "max_pushes"), 0, "'rules.max_pushes'"),
    (("rules", "hidden_shafts"), "no", "'rules.hidden_shafts'"),
    (("to_move",), 4, "'to_move'"),
    (("pushes",), -1, "'pushes'"),
    (("pending_gem",), "blue", "'pending_gem'"),           # 3 players never wait for a choice
    (("hands", 0), 2, "'hands[0]'"),                        # a colour-0 cart went missing
    (("hands",), [3, 3, 3], "'hands'"),
    (("supply",), 3, "'supply'"),
    (("displays", 3), {"grey": 1}, "'displays[3]'"),        # colour 3 is nobody's with 3 players
    (("displays", 0), {"gold": 1}, "'displays[0].gold'"),
    (("cells", 1, "kind"), 3, "'cells[1].kind'"),            # no colour-3 cart with 3 players
    (("cells", 1, "gem"), "gray", "'cells[1].gem'"),
    (("cells", 1, "seen"), True, "'cells[1].seen'"),         # an empty cart has no seen gem
    (("cells", 1, "colour"), 0, "'cells[1].colour'"),
    (("cells", 0), {"kind": 0, "gem": None, "seen": False}, "'cells[0]'"),  # empty under gems
    (("cells",), [None] * 15, "'cells'"),
    (("shafts", 2, 0), "ruby", "'shafts[2][0]'"),
    (("shafts", 2), ["grey"] * 8, "'shafts[2]'"),
    (("shafts", 2, 0), "another gem", "shafts/cells/displays/pending_gem"),  # totals change
    (("supply",), DELETE, "'supply'"),
    (("colour",), 1, "'colour'"),
]


@pytest.mark.parametrize("path, value, field", BAD_FIELDS, ids=lambda x: str(x))
def test_json_validation_names_the_bad_field(path, value, field):
    doc = json.loads(to_json(new_game(Rules(3), seed=1)))
    if value == "another gem":
        value = next(g for g in GEMS if g != doc["shafts"][2][0])
    edit(doc, path, value)
    with pytest.raises(InputError, match=field.replace("[", r"\[").replace("]", r"\]")):
        from_json(json.dumps(doc))


BAD_VIEW_FIELDS = [
    (("shafts", 0, "height"), 8, "'shafts[0].height'"),
    (("shafts", 0, "top"), None, "'shafts[0].top'"),         # a shaft with gems shows its top
    (("shafts", 0, "height"), 6, "'shafts'"),                # one unseen gem too few places
    (("cells", 1, "loaded"), "yes", "'cells[1].loaded'"),
    (("cells", 1, "gem"), "blue", "'cells[1].gem'"),         # an empty cart holds no gem
]


@pytest.mark.parametrize("path, value, field", BAD_VIEW_FIELDS, ids=lambda x: str(x))
def test_json_view_validation_names_the_bad_field(path, value, field):
    doc = json.loads(to_json(public_view(new_game(Rules(4), seed=1))))
    edit(doc, path, value)
    with pytest.raises(InputError, match=field.replace("[", r"\[").replace("]", r"\]")):
        from_json(json.dumps(doc))


def test_json_that_is_not_json_is_an_input_error():
    with pytest.raises(InputError, match="not valid JSON"):
        from_json("{cells: ")


# --- whole games ----------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_random_games_run_to_the_end(rules, rng):
    for seed in range(15):
        states = random_game(rules, rng, seed)
        end = states[-1]
        assert is_over(end) and sum(result(end)) == pytest.approx(1)
        assert end.pushes <= rules.max_pushes
        for state in states[::7]:          # every stored state is one the game can hold
            assert from_json(to_json(state)) == state


def test_random_games_with_hidden_shafts_and_a_short_limit_run_to_the_end(rng):
    for seed in range(10):
        rules = Rules(2 + seed % 3, list(LAYOUTS)[seed % 2], hidden_shafts=True, max_pushes=30)
        end = random_game(rules, rng, seed)[-1]
        assert is_over(end) and end.pushes <= 30


def test_draw_shows_every_rail():
    picture = draw(new_game(Rules(4), seed=1))
    assert picture.splitlines()[0] == "rail 0: .*   0    .*   C"
    assert len(picture.splitlines()) == 4 + 1 + 4


@pytest.mark.parametrize("options, message", [
    (dict(players=2.0), "players must be 2, 3 or 4"),
    (dict(players=True), "players must be 2, 3 or 4"),
    (dict(players=2, max_pushes=0), r"max_pushes must be a whole number 1\.\."),
    (dict(players=2, max_pushes=1.5), r"max_pushes must be a whole number 1\.\."),
])
def test_rules_take_only_whole_player_and_push_counts(options, message):
    with pytest.raises(InputError, match=message):
        Rules(**options)


def test_rules_given_numpy_integers_hold_ints():
    import numpy as np
    rules = Rules(np.int64(3), max_pushes=np.int16(50))
    assert (type(rules.players), type(rules.max_pushes)) == (int, int)
    assert rules == Rules(3, max_pushes=50)
