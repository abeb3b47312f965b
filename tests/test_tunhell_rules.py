"""Tunhell reference rules: one rule of the rulebook (or of DECISIONS.md) per test, then
information sets, the sampler, the JSON codec and random games to the end.

Mines in these tests are written top first: ``[GOBLIN, DIRT]`` means the Goblin is drawn first.
"""
import json
import math
import random
from collections import Counter
from itertools import permutations

import pytest
from documents import DELETE, edit

from solver.errors import InputError
from solver.games import get as game_record
from solver.games.tunhell import (
    CENTER_SIZE, EMPLOYEE_VP, END_SET_ASIDE, EXTERMINATOR_VP, HAND_LIMIT, MINES, NOBODY, SET_ASIDE,
    START_HAND, Action, Move, Phase, Rules, State, all_cards, apply, check_state, dig_bonus,
    dig_capacity, enemy_value, from_json, has_access, information_set, is_over, legal_actions,
    new_game, result, sample_state, scores, strength, to_json, winners)
from solver.games.tunhell.cards import (
    BACK_DOOR, BEER, CARDS, DEMON, DIGGER_1_2, DIGGER_2_0, DIGGER_2_1, DIGGER_2_5, DIGGER_3_0,
    DIGGER_4_3, DIRT, DRAGON, DWARF_KINDS, DWOUARF, DYNAMITER, END_KINDS, GHOST, GOBLIN,
    GOLDEN_HEART, MACHIN, NAWAK, ORC, PICKAXE, RAT, RING, SCOUT_3, SCOUT_5, SPIDER, THRONE_ROOM,
    TREASURE, TROLL, WARRIOR_1, WARRIOR_2, WARRIOR_3, WARRIOR_4, Deck, Role, game_cards, mask_of)

FILLER_ENDS = (SPIDER, DEMON, THRONE_ROOM, BACK_DOOR)   # End cards put under unfinished test mines


def table(players=2, intro=False, *, mines=None, hands=None, seen_hands=False, warriors=None,
          loot=None, center=None, pile=(), discard=(), box=None, rest_to="pile",
          to_move=0, dig_may_stop=False) -> State:
    """A position with the given cards placed and every other card of the game put away: Dwarf
    cards at the bottom of the Dwarf pile (``rest_to="pile"``) or on its discard, Mine cards in
    the box (or, with ``rest_to="discard"``, on the Mine discard). Mines and the pile are top
    first; in the full game a mine not ending with an End of Mine card gets one under it."""
    rules = Rules(players, intro, dig_may_stop)
    left = all_cards(rules)

    def take(cards):
        cards = list(cards)
        for card in cards:
            assert left[card] > 0, f"the game has no more {CARDS[card].name}"
            left[card] -= 1
        return list(cards)

    mines = [list(m) for m in (mines or [[DIRT] * 5] * MINES)]
    for m in mines:
        if m and not intro and m[-1] not in END_KINDS:
            m.append(next(e for e in FILLER_ENDS if left[e] > 0 and e not in sum(mines, [])))
    piles = [take(reversed(m)) for m in mines]
    hands = [sorted(take(h)) for h in (hands or [[]] * players)]
    warriors = [[sorted(take(w)) for w in per] for per in (warriors or [[[]] * MINES] * players)]
    loot = [sorted(take(x)) for x in (loot or [[]] * players)]
    center = sorted(take(center if center is not None else
                         [WARRIOR_2, WARRIOR_3, DIGGER_3_0, SCOUT_5, DYNAMITER]))
    top = take(reversed(pile))
    dwarf_discard = sorted(take(discard))
    box = sorted(take(box)) if box is not None else []
    rest = sorted(k for k, n in left.items() for _ in range(n))
    rest_dwarf = [k for k in rest if CARDS[k].deck == Deck.DWARF]
    rest_mine = [k for k in rest if CARDS[k].deck != Deck.DWARF]
    pile = (rest_dwarf if rest_to == "pile" else []) + top
    if rest_to == "discard":
        dwarf_discard = sorted(dwarf_discard + rest_dwarf)
    mine_discard = rest_mine if rest_to == "discard" else []
    if rest_to == "pile":
        box = sorted(box + rest_mine)
    s = State(rules, piles, box, pile, 0, center, dwarf_discard, mine_discard, hands,
              [list(h) if seen_hands else [] for h in hands], [0] * players, warriors, loot,
              [[0] * MINES for _ in range(players)], to_move=to_move, chance=12345)
    check_state(s)
    return s


def play(s: State, *actions: Action) -> State:
    for action in actions:
        s = apply(s, action)
        check_state(s)
    return s


def warrior(card, mine):
    return Action(Move.WARRIOR, card, mine)


def digger(card, mine, *bonuses):
    return Action(Move.DIGGER, card, mine, tuple(sorted(bonuses)))


def fight(*spent, use_digger=False):
    return Action(Move.FIGHT, cards=tuple(sorted(spent)), use_digger=use_digger)


def top_first(s: State, mine: int) -> list[int]:
    return s.mines[mine][::-1]


def moves(s: State, move: Move) -> list[Action]:
    return [a for a in legal_actions(s) if a.move == move]


# --- setup ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("intro", [True, False])
def test_setup_deals_the_mines_the_hands_and_the_recruitment_center(players, intro):
    s = new_game(Rules(players, intro), seed=3)
    mine_cards = sum(game_cards(Deck.MINE, intro).values()) - SET_ASIDE[intro]
    assert [len(m) for m in s.mines] == [mine_cards // MINES + (0 if intro else 1)] * MINES
    assert all(len(h) == START_HAND for h in s.hands) and len(s.center) == CENTER_SIZE
    dwarves = sum(game_cards(Deck.DWARF, intro).values())
    assert len(s.pile) == dwarves - START_HAND * players - CENTER_SIZE
    assert len(s.box) == SET_ASIDE[intro] + (0 if intro else END_SET_ASIDE)
    if intro:   # the "+" cards stay in the box... of the game, not of this table
        assert not any(CARDS[k].full_only for k in sum(s.mines, []) + s.box)
    else:
        assert all(m[0] in END_KINDS for m in s.mines)   # an End of Mine card under each pile
    assert s.to_move == 0 and s.phase == Phase.TURN
    check_state(s)


def test_legal_actions_come_in_the_documented_order():
    s = table(hands=[[DWOUARF, MACHIN, SCOUT_5, DIGGER_2_1, WARRIOR_2, NAWAK], []])
    actions = legal_actions(s)
    recruits = [a for a in actions if a.move == Move.RECRUIT]
    assert actions[:len(recruits)] == recruits and recruits == sorted(recruits)
    plays = [(a.card, a.mine) for a in actions[len(recruits):]]
    assert plays == sorted(plays)   # by hand card id, then mine, then Bonus multiset
    s = table(hands=[[DIGGER_2_5], []], mines=[[TROLL], [DIRT], [DIRT]],
              warriors=[[[WARRIOR_1, WARRIOR_1, WARRIOR_2, WARRIOR_3], [], []], [[]] * MINES])
    s = play(s, digger(DIGGER_2_5, 0))
    key = [tuple(a.cards.count(k) for k in (WARRIOR_1, WARRIOR_2, WARRIOR_3, WARRIOR_4))
           + (a.use_digger,) for a in legal_actions(s)]
    assert key == sorted(key)      # W1 count, W2, W3, W4, then the Digger unused before used


def test_tunhell_is_registered():
    info = game_record("tunhell").info
    assert (info.min_players, info.max_players, info.rules_version) == (2, 4, 2)
    assert not info.perfect_information and info.chance


def test_rules_refuse_five_players():
    with pytest.raises(InputError, match="2 to 4 players"):
        Rules(5)


# --- a turn: recruit or play ---------------------------------------------------------------------

def test_recruiting_takes_a_center_card_which_the_pile_top_replaces():
    s = table(center=[WARRIOR_2, WARRIOR_3, DIGGER_3_0, SCOUT_5, DYNAMITER], pile=[DIGGER_4_3])
    after = play(s, Action(Move.RECRUIT, WARRIOR_3))
    assert after.hands[0] == [WARRIOR_3] and after.hand_seen[0] == [WARRIOR_3]
    assert sorted(after.center) == sorted([WARRIOR_2, DIGGER_3_0, SCOUT_5, DYNAMITER, DIGGER_4_3])
    assert len(after.pile) == len(s.pile) - 1
    assert after.to_move == 1   # one action per turn


def test_recruiting_is_not_allowed_with_six_cards_in_hand():
    full = table(hands=[[WARRIOR_1] * 6, []])
    assert len(full.hands[0]) == HAND_LIMIT and not moves(full, Move.RECRUIT)
    five = table(hands=[[WARRIOR_1] * 5, []])
    assert moves(five, Move.RECRUIT)


def test_the_top_card_of_the_dwarf_pile_can_never_be_taken():
    s = table(pile=[DIGGER_2_5])
    assert DIGGER_2_5 not in s.center
    assert Action(Move.RECRUIT, DIGGER_2_5) not in legal_actions(s)
    with pytest.raises(InputError, match="illegal"):
        apply(s, Action(Move.RECRUIT, DIGGER_2_5))


def test_an_empty_pile_is_replaced_by_the_shuffled_discards():
    s = table(pile=[DIGGER_4_3], rest_to="discard")
    after = play(s, Action(Move.RECRUIT, WARRIOR_2))
    assert DIGGER_4_3 in after.center
    assert sorted(after.pile) == s.dwarf_discard and after.dwarf_discard == []
    assert after.shuffles == 1 and after.pile != s.dwarf_discard   # in a new order


def test_a_recruited_play_now_card_is_played_in_the_same_turn():
    s = table(center=[WARRIOR_1, WARRIOR_2, WARRIOR_3, SCOUT_5, DYNAMITER])
    s = play(s, Action(Move.RECRUIT, WARRIOR_1))
    assert s.phase == Phase.PLAY_NOW and s.to_move == 0
    assert legal_actions(s) == [warrior(WARRIOR_1, m) for m in range(MINES)]
    s = play(s, warrior(WARRIOR_1, 2))
    assert s.warriors[0][2] == [WARRIOR_1] and s.to_move == 1 and s.phase == Phase.TURN


def test_a_play_now_card_can_be_recruited_only_if_it_can_be_played():
    blocked = [[[]] * MINES, [[WARRIOR_2]] * MINES]   # the opponent guards every mine
    s = table(center=[DIGGER_2_0, WARRIOR_2, WARRIOR_3, SCOUT_5, DYNAMITER], warriors=blocked)
    recruits = [a.card for a in moves(s, Move.RECRUIT)]
    assert DIGGER_2_0 not in recruits and WARRIOR_2 in recruits
    open_mine = table(center=[DIGGER_2_0, WARRIOR_2, WARRIOR_3, SCOUT_5, DYNAMITER])
    assert DIGGER_2_0 in [a.card for a in moves(open_mine, Move.RECRUIT)]


def test_play_now_cards_dealt_at_setup_are_held_like_any_other():
    s = table(hands=[[WARRIOR_1, SCOUT_3], []])
    s = play(s, Action(Move.RECRUIT, WARRIOR_2))
    assert s.hands[0] == sorted([WARRIOR_1, SCOUT_3, WARRIOR_2]) and s.to_move == 1


# --- Warriors ------------------------------------------------------------------------------------

def test_a_warrior_adds_its_value_to_its_players_warriors_at_that_mine():
    s = table(hands=[[WARRIOR_3], []], warriors=[[[], [WARRIOR_2], []], [[]] * MINES])
    s = play(s, warrior(WARRIOR_3, 1))
    assert strength(s, 0, 1) == CARDS[WARRIOR_2].combat + CARDS[WARRIOR_3].combat


def test_a_proud_warrior_discards_his_companions_and_then_stands_alone():
    s = table(hands=[[WARRIOR_4, WARRIOR_4, WARRIOR_3], []],
              warriors=[[[WARRIOR_1, WARRIOR_2], [], []], [[]] * MINES])
    s = play(s, warrior(WARRIOR_4, 0))
    assert s.warriors[0][0] == [WARRIOR_4]
    assert Counter([WARRIOR_1, WARRIOR_2]) <= Counter(s.dwarf_discard)
    s.to_move = 0
    assert {a.mine for a in moves(s, Move.WARRIOR)} == {1, 2}   # no company, proud or not


def test_dwouarf_cannot_join_a_proud_warrior_and_flees_when_one_arrives():
    s = table(hands=[[DWOUARF], []], warriors=[[[WARRIOR_4], [], []], [[]] * MINES])
    assert [a.mine for a in moves(s, Move.WARRIOR)] == [1, 2]
    s = table(hands=[[WARRIOR_4], []], warriors=[[[DWOUARF, WARRIOR_2], [], []], [[]] * MINES])
    s = play(s, warrior(WARRIOR_4, 0))
    assert s.warriors[0][0] == [WARRIOR_4] and DWOUARF in s.mine_discard


# --- Diggers and the access test -----------------------------------------------------------------

def test_a_digger_needs_as_much_warrior_strength_as_each_opponent_separately():
    s = table(3, hands=[[DIGGER_3_0], [], []], warriors=[
        [[WARRIOR_2], [WARRIOR_3], []],
        [[WARRIOR_2], [WARRIOR_1], []],
        [[WARRIOR_1], [WARRIOR_2, WARRIOR_2], [WARRIOR_1]]])
    assert has_access(s, 0, 0)          # equal to seat 1, more than seat 2
    assert not has_access(s, 0, 1)      # more than seat 1 but less than seat 2 (3 < 4)
    assert not has_access(s, 0, 2)      # no Warrior of his own against seat 2's
    assert sorted({a.mine for a in moves(s, Move.DIGGER)}) == [0]
    assert has_access(s, 1, 2) is False and has_access(s, 2, 2)


def test_a_digger_may_enter_a_mine_without_warriors():
    s = table(hands=[[DIGGER_3_0], []])
    assert [a.mine for a in moves(s, Move.DIGGER)] == [0, 1, 2]


def test_the_diggers_combat_bonus_does_not_count_for_access():
    s = table(hands=[[DIGGER_2_5], []], warriors=[[[]] * MINES, [[], [WARRIOR_1], []]])
    assert [a.mine for a in moves(s, Move.DIGGER)] == [0, 2]   # the rulebook's illustration


def test_a_digger_draws_card_by_card_up_to_its_capacity_then_is_discarded():
    s = table(hands=[[DIGGER_3_0], []], mines=[[DIRT, TREASURE, DIRT, DIRT], [DIRT] * 3, [DIRT]])
    s = play(s, digger(DIGGER_3_0, 0))
    assert sorted(s.loot[0]) == sorted([DIRT, TREASURE, DIRT])
    assert top_first(s, 0)[0] == DIRT and len(s.mines[0]) == 2   # one Dirt and the End card left
    assert DIGGER_3_0 in s.dwarf_discard and s.to_move == 1


def test_an_emptied_mine_stops_the_dig_and_its_warriors_are_discarded():
    s = table(intro=True, hands=[[DIGGER_3_0], []], mines=[[DIRT], [DIRT] * 2, [DIRT] * 2],
              warriors=[[[WARRIOR_3], [WARRIOR_2], []], [[WARRIOR_2], [], []]])
    s = play(s, digger(DIGGER_3_0, 0))
    assert s.loot[0] == [DIRT] and s.mines[0] == []
    assert s.warriors[0][0] == [] and s.warriors[1][0] == [] and s.warriors[0][1] == [WARRIOR_2]
    assert not is_over(s) and s.to_move == 1
    assert all(a.mine != 0 for a in legal_actions(s))   # nothing goes to an empty mine


# --- rule option: the Digger may stop after any card (decision 7) ---------------------------------

DIG_ON, STOP = Action(Move.DIG_ON), Action(Move.STOP)


def test_by_default_digging_is_compulsory_and_asks_nothing():
    s = table(hands=[[DIGGER_3_0], []], mines=[[DIRT, TREASURE, DIRT, DIRT], [DIRT] * 3, [DIRT]])
    s = play(s, digger(DIGGER_3_0, 0))
    assert s.phase == Phase.TURN and s.to_move == 1 and len(s.loot[0]) == 3


def test_with_the_option_the_digger_draws_one_card_then_may_dig_on_or_stop():
    s = table(hands=[[DIGGER_3_0], []], mines=[[TREASURE, DRAGON, DIRT], [DIRT] * 3, [DIRT]],
              dig_may_stop=True)
    s = play(s, digger(DIGGER_3_0, 0))
    assert s.loot[0] == [TREASURE] and s.phase == Phase.DIG_ON and s.to_move == 0
    assert legal_actions(s) == [DIG_ON, STOP] and s.dig_left == 2


def test_stopping_ends_the_turn_and_discards_the_digger_leaving_the_mine_as_it_is():
    s = table(hands=[[DIGGER_3_0], []], mines=[[TREASURE, DRAGON, DIRT], [DIRT] * 3, [DIRT]],
              dig_may_stop=True)
    s = play(s, digger(DIGGER_3_0, 0), STOP)
    assert s.loot[0] == [TREASURE] and top_first(s, 0)[:2] == [DRAGON, DIRT]
    assert DIGGER_3_0 in s.dwarf_discard and s.digger == -1
    assert s.phase == Phase.TURN and s.to_move == 1


def test_digging_on_draws_the_next_card_and_asks_again_while_draws_are_left():
    s = table(hands=[[DIGGER_3_0], []], mines=[[DIRT, TREASURE, DIRT, DIRT], [DIRT] * 3, [DIRT]],
              dig_may_stop=True)
    s = play(s, digger(DIGGER_3_0, 0), DIG_ON)
    assert s.loot[0] == [DIRT, TREASURE] and s.phase == Phase.DIG_ON
    s = play(s, DIG_ON)          # the third card spends the capacity: no more question
    assert sorted(s.loot[0]) == [DIRT, DIRT, TREASURE] and s.to_move == 1


def test_the_question_follows_a_fight_won_with_warriors_but_not_one_that_spent_the_digger():
    s = table(hands=[[DIGGER_2_5], []], mines=[[GOBLIN, DIRT, DIRT], [DIRT] * 3, [DIRT]],
              warriors=[[[WARRIOR_2], [], []], [[]] * MINES], dig_may_stop=True)
    won = play(s, digger(DIGGER_2_5, 0), fight(WARRIOR_2))
    assert won.loot[0] == [GOBLIN] and won.phase == Phase.DIG_ON
    spent = play(s, digger(DIGGER_2_5, 0), fight(use_digger=True))
    assert spent.loot[0] == [GOBLIN] and spent.phase == Phase.TURN and spent.to_move == 1


def test_no_question_when_the_mine_runs_out():
    s = table(intro=True, hands=[[DIGGER_3_0], []], mines=[[DIRT], [DIRT] * 2, [DIRT] * 2],
              dig_may_stop=True)
    s = play(s, digger(DIGGER_3_0, 0))
    assert s.loot[0] == [DIRT] and s.phase == Phase.TURN and s.to_move == 1


def test_a_lost_fight_ends_the_dig_without_a_question():
    s = table(hands=[[DIGGER_3_0], []], mines=[[DIRT, DRAGON, DIRT], [DIRT] * 3, [DIRT]],
              dig_may_stop=True)
    s = play(s, digger(DIGGER_3_0, 0), DIG_ON)
    assert s.loot[0] == [DIRT] and top_first(s, 0)[0] == DRAGON and s.to_move == 1


def test_the_question_comes_after_the_back_door_is_placed():
    s = table(hands=[[DIGGER_3_0], []], mines=[[BACK_DOOR], [DIRT] * 3, [DIRT] * 2],
              dig_may_stop=True)
    s = play(s, digger(DIGGER_3_0, 0), Action(Move.DOOR, mine=1))
    assert s.phase == Phase.DIG_ON and s.door_mine == 1 and s.dig_mine == 1
    s = play(s, DIG_ON)
    assert s.loot[0] == [DIRT] and s.phase == Phase.DIG_ON


def first_dig_on_state(players=2) -> State:
    """The first DIG_ON decision met in seeded random games under the option (a reachable one)."""
    for seed in range(100):
        rng = random.Random(seed)
        s = new_game(Rules(players, dig_may_stop=True), seed)
        while not is_over(s):
            if s.phase == Phase.DIG_ON:
                return s
            s = apply(s, rng.choice(legal_actions(s)), check=False)
    raise AssertionError("no dig-on decision met")


def test_a_dig_on_position_round_trips_through_json_and_says_its_rules():
    s = first_dig_on_state()
    for seat in (0, 1):
        info = information_set(s, seat)
        doc = json.loads(to_json(info))
        assert doc["rules"]["dig_may_stop"] is True and doc["phase"] == "dig-on"
        assert doc["rules_version"] == game_record("tunhell").info.rules_version
        assert from_json(to_json(info)) == info


def test_a_version_1_position_is_read_as_compulsory_digging():
    doc = json.loads(start_position_doc())
    doc["rules_version"] = 1
    del doc["rules"]["dig_may_stop"]
    assert from_json(json.dumps(doc)).rules.dig_may_stop is False


MISMATCHED_RULES = {
    "version 1 with the option": (1, {"players": 2, "intro": False, "dig_may_stop": True},
                                  "rules.dig_may_stop"),
    "version 2 without the option": (2, {"players": 2, "intro": False}, "rules"),
    "an unknown version": (3, {"players": 2, "intro": False, "dig_may_stop": False},
                           "rules_version"),
    "the option not a bool": (2, {"players": 2, "intro": False, "dig_may_stop": 1},
                              "rules.dig_may_stop"),
}


@pytest.mark.parametrize("version, rules, field", MISMATCHED_RULES.values(),
                         ids=MISMATCHED_RULES.keys())
def test_a_reader_refuses_rules_that_do_not_match_their_version(version, rules, field):
    doc = json.loads(start_position_doc())
    doc["rules_version"], doc["rules"] = version, rules
    with pytest.raises(InputError, match=field.replace(".", r"\.")) as error:
        from_json(json.dumps(doc))
    assert "\n" not in str(error.value)


def test_phase_dig_on_is_refused_under_compulsory_digging():
    s = first_dig_on_state()
    doc = json.loads(to_json(information_set(s, 0)))
    doc["rules"]["dig_may_stop"] = False
    with pytest.raises(InputError, match="dig_may_stop"):
        from_json(json.dumps(doc))


# --- encounters and fights -----------------------------------------------------------------------

def all_winning_choices(own_warriors, bonus, need):
    """Brute force: every sub-multiset of the Warriors, with or without a Digger whose bonus
    counts, reaching ``need``."""
    choices = set()
    for size in range(len(own_warriors) + 1):
        for picked in permutations(own_warriors, size):
            for use in (False, True):
                if use and bonus <= 0 or not picked and not use:
                    continue
                if sum(CARDS[k].combat for k in picked) + (bonus if use else 0) >= need:
                    choices.add(fight(*picked, use_digger=use))
    return choices


def test_a_fight_offers_every_choice_of_warriors_and_bonus_reaching_the_enemy():
    own = [WARRIOR_1, WARRIOR_1, WARRIOR_2, WARRIOR_3]
    s = table(hands=[[DIGGER_2_1], []], mines=[[ORC, DIRT], [DIRT], [DIRT]],
              warriors=[[own, [], []], [[]] * MINES])
    s = play(s, digger(DIGGER_2_1, 0))
    assert s.phase == Phase.FIGHT and s.pending == ORC and s.to_move == 0
    choices = legal_actions(s)
    assert len(choices) == len(set(choices))   # one action per multiset of values
    assert set(choices) == all_winning_choices(own, dig_bonus(DIGGER_2_1, ()), CARDS[ORC].combat)


def test_a_fight_that_can_be_won_must_be_won():
    s = table(hands=[[DIGGER_2_1], []], mines=[[GOBLIN, DIRT], [DIRT], [DIRT]],
              warriors=[[[WARRIOR_1, WARRIOR_3], [], []], [[]] * MINES])
    s = play(s, digger(DIGGER_2_1, 0))
    assert all(a.move == Move.FIGHT for a in legal_actions(s))
    for choice in legal_actions(s):
        assert GOBLIN in apply(s, choice).loot[0]


def test_rulebook_example_the_goblin_then_the_sword():
    s = table(hands=[[DIGGER_2_1], []], mines=[[GOBLIN, NAWAK, DIRT], [DIRT], [DIRT]],
              warriors=[[[WARRIOR_1, WARRIOR_3], [], []], [[]] * MINES])
    s = play(s, digger(DIGGER_2_1, 0))
    assert fight(WARRIOR_3) in legal_actions(s)
    assert fight(WARRIOR_1, use_digger=True) in legal_actions(s)   # "they could have chosen..."
    s = play(s, fight(WARRIOR_3))
    assert s.loot[0] == [GOBLIN] and s.warriors[0][0] == [WARRIOR_1]
    assert s.hands[0] == [NAWAK]           # the Digger's last draw: the Sword joins the hand
    assert s.to_move == 1 and top_first(s, 0)[0] == DIRT


def test_rulebook_example_the_orc_needs_the_warrior_and_the_diggers_bonus():
    s = table(hands=[[DIGGER_2_1], []], mines=[[ORC, DIRT], [DIRT], [DIRT]],
              warriors=[[[WARRIOR_2], [], []], [[]] * MINES])
    s = play(s, digger(DIGGER_2_1, 0))
    assert legal_actions(s) == [fight(WARRIOR_2, use_digger=True)]
    s = play(s, fight(WARRIOR_2, use_digger=True))
    assert s.loot[0] == [ORC] and top_first(s, 0)[0] == DIRT   # the discarded Digger stops
    assert Counter([WARRIOR_2, DIGGER_2_1]) <= Counter(s.dwarf_discard) and s.to_move == 1


def test_warriors_alone_let_the_digger_dig_on():
    s = table(hands=[[DIGGER_2_1], []], mines=[[RAT, TREASURE], [DIRT], [DIRT]],
              warriors=[[[WARRIOR_1], [], []], [[]] * MINES])
    s = play(s, digger(DIGGER_2_1, 0), fight(WARRIOR_1))
    assert sorted(s.loot[0]) == sorted([RAT, TREASURE])


def test_defeat_discards_warriors_and_digger_and_returns_the_enemy_face_down():
    s = table(hands=[[DIGGER_2_0], []], mines=[[DRAGON, TREASURE], [DIRT], [DIRT]],
              warriors=[[[WARRIOR_2], [WARRIOR_3], []], [[]] * MINES])
    size = len(s.mines[0])
    s = play(s, digger(DIGGER_2_0, 0))   # rulebook example 3: the Dragon cannot be beaten
    assert s.warriors[0][0] == [] and s.warriors[0][1] == [WARRIOR_3]
    assert Counter([WARRIOR_2, DIGGER_2_0]) <= Counter(s.dwarf_discard)
    assert top_first(s, 0)[0] == DRAGON and len(s.mines[0]) == size and s.loot[0] == []
    assert s.to_move == 1
    for seat in range(2):   # everyone saw it go back
        assert (size - 1, DRAGON) in information_set(s, seat).mine_known[0]


def test_dwouarf_lowers_every_enemy_by_one_and_eliminates_rats():
    s = table(hands=[[DIGGER_3_0], []], mines=[[RAT, GOBLIN, DIRT], [DIRT], [DIRT]],
              warriors=[[[DWOUARF, WARRIOR_1], [], []], [[]] * MINES])
    s = play(s, digger(DIGGER_3_0, 0))
    assert s.loot[0] == [RAT]                          # eliminated directly, no decision
    assert enemy_value(s, GOBLIN) == CARDS[GOBLIN].combat - 1
    assert legal_actions(s) == [fight(WARRIOR_1)]      # a Goblin worth 1
    s = play(s, fight(WARRIOR_1))
    assert s.warriors[0][0] == [DWOUARF]               # never discarded on a win
    assert sorted(s.loot[0]) == sorted([RAT, GOBLIN, DIRT])


def test_dwouarf_is_discarded_with_the_others_on_a_defeat():
    s = table(hands=[[DIGGER_3_0], []], mines=[[DRAGON], [DIRT], [DIRT]],
              warriors=[[[DWOUARF, WARRIOR_1], [], []], [[]] * MINES])
    s = play(s, digger(DIGGER_3_0, 0))
    assert s.warriors[0][0] == [] and DWOUARF in s.mine_discard


def test_spider_and_demon_are_encounters_of_five_and_seven():
    assert (CARDS[SPIDER].combat, CARDS[SPIDER].vp, CARDS[DEMON].combat, CARDS[DEMON].vp) == (
        5, 5, 7, 7)
    for end in (SPIDER, DEMON):
        own = [WARRIOR_2, WARRIOR_3]
        s = table(hands=[[DIGGER_1_2], []], mines=[[end], [DIRT], [DIRT]],
                  warriors=[[own, [], []], [[]] * MINES])
        s = play(s, digger(DIGGER_1_2, 0))
        assert s.phase == Phase.FIGHT and s.pending == end
        assert set(legal_actions(s)) == all_winning_choices(own, dig_bonus(DIGGER_1_2, ()),
                                                            CARDS[end].combat)
        s = play(s, legal_actions(s)[0])
        assert s.loot[0] == [end] and scores(s)[0] == CARDS[end].vp


# --- Scouts and Dynamiters -----------------------------------------------------------------------

def test_a_scout_shows_the_top_cards_to_its_player_only():
    s = table(hands=[[SCOUT_3], []], mines=[[GOBLIN, DIRT, TREASURE, RAT, DRAGON], [DIRT], [DIRT]])
    order = list(s.mines[0])
    s = play(s, Action(Move.SCOUT, SCOUT_3, 0))
    assert s.mines[0] == order and SCOUT_3 in s.dwarf_discard
    mine = information_set(s, 0).mine_known[0]
    assert [card for _, card in sorted(mine, reverse=True)] == [GOBLIN, DIRT, TREASURE]
    theirs = information_set(s, 1)
    assert theirs.mine_known[0] == ()
    assert theirs.seen[0][0] == information_set(s, 0).seen[0][0]   # they know what he looked at


def test_a_scout_at_a_short_mine_sees_what_is_left_and_nothing_elsewhere():
    s = table(intro=True, hands=[[SCOUT_5], []], mines=[[ORC, RAT], [DIRT] * 4, [DIRT] * 4])
    s = play(s, Action(Move.SCOUT, SCOUT_5, 0))
    known = information_set(s, 0).mine_known
    assert sorted(card for _, card in known[0]) == sorted([ORC, RAT]) and known[1] == known[2] == ()


def test_scout_knowledge_stays_with_the_cards_left_after_a_draw():
    s = table(hands=[[SCOUT_3, DIGGER_1_2], []],
              mines=[[TREASURE, RAT, DIRT, DIRT], [DIRT], [DIRT]])
    s = play(s, Action(Move.SCOUT, SCOUT_3, 0), Action(Move.RECRUIT, WARRIOR_2),
             digger(DIGGER_1_2, 0))
    known = information_set(s, 0).mine_known[0]
    assert [card for _, card in sorted(known, reverse=True)] == [RAT, DIRT]


def test_a_dynamiter_discards_every_warrior_at_its_mine_its_players_too():
    s = table(hands=[[DYNAMITER], []],
              warriors=[[[WARRIOR_2], [WARRIOR_3], []], [[WARRIOR_4], [DWOUARF, WARRIOR_1], []]])
    s = play(s, Action(Move.DYNAMITE, DYNAMITER, 1))
    assert s.warriors[0][1] == [] and s.warriors[1][1] == []
    assert s.warriors[0][0] == [WARRIOR_2] and s.warriors[1][0] == [WARRIOR_4]
    assert DWOUARF in s.mine_discard and Counter([WARRIOR_3, WARRIOR_1, DYNAMITER]) <= Counter(
        s.dwarf_discard)


# --- the full game: Finds, Bonuses, Special Treasures --------------------------------------------

def test_finds_join_the_hand_else_the_next_hand_with_room_else_the_discard():
    s = table(hands=[[DIGGER_1_2], []], mines=[[MACHIN], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.hands[0] == [MACHIN] and s.hand_seen[0] == [MACHIN]   # everyone saw it
    five, six = [WARRIOR_1] * 5, [WARRIOR_3] * 3 + [SCOUT_3] * 3
    s = table(3, hands=[five + [DIGGER_3_0], six, []],
              mines=[[NAWAK, PICKAXE, DIRT], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_3_0, 0))
    assert NAWAK in s.hands[0] and PICKAXE in s.hands[2]   # the finder's hand filled up first
    s = table(2, hands=[five + [DIGGER_3_0], six], mines=[[NAWAK, PICKAXE, DIRT], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_3_0, 0))
    assert NAWAK in s.hands[0] and PICKAXE in s.mine_discard   # nobody had room


def test_bonuses_go_only_with_a_digger_in_every_combination():
    s = table(hands=[[DIGGER_2_1, NAWAK, PICKAXE, BEER, BEER], []])
    assert not [a for a in legal_actions(s) if a.card in (NAWAK, PICKAXE, BEER)]
    combos = {a.cards for a in moves(s, Move.DIGGER) if a.mine == 0}
    assert len(combos) == 2 * 2 * 3   # Sword 0-1, Pickaxe 0-1, Beer 0-2


def test_bonus_numbers_beer_doubles_the_diggers_own_values_only():
    assert (dig_capacity(DIGGER_2_1, [BEER]), dig_bonus(DIGGER_2_1, [BEER])) == (4, 2)  # rulebook
    assert dig_bonus(DIGGER_2_1, [NAWAK]) == CARDS[DIGGER_2_1].bonus + 2
    assert dig_capacity(DIGGER_2_1, [PICKAXE]) == CARDS[DIGGER_2_1].dig + 2
    assert dig_bonus(DIGGER_2_1, [NAWAK, BEER]) == 2 * CARDS[DIGGER_2_1].bonus + 2
    assert dig_capacity(DIGGER_2_1, [BEER, BEER]) == 4 * CARDS[DIGGER_2_1].dig


def test_bonuses_are_discarded_with_their_digger():
    s = table(hands=[[DIGGER_1_2, PICKAXE], []], mines=[[DIRT] * 4, [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_1_2, 0, PICKAXE))
    assert s.loot[0] == [DIRT] * (CARDS[DIGGER_1_2].dig + 2)
    assert PICKAXE in s.mine_discard and DIGGER_1_2 in s.dwarf_discard and s.hands[0] == []


def test_machin_is_a_digger_four_zero_who_returns_to_the_mine_discard():
    s = table(hands=[[MACHIN], []], mines=[[DIRT] * 5, [DIRT], [DIRT]])
    s = play(s, digger(MACHIN, 0))
    assert len(s.loot[0]) == CARDS[MACHIN].dig == 4 and MACHIN in s.mine_discard


def test_rings_join_the_hand_and_score_two_points_there():
    s = table(hands=[[DIGGER_1_2], []], mines=[[RING], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.hands[0] == [RING] and s.loot[0] == [] and scores(s)[0] == CARDS[RING].vp == 2
    his_next_turn = play(s, Action(Move.RECRUIT, WARRIOR_2))
    assert not [a for a in legal_actions(his_next_turn) if a.card == RING]   # never played


def test_the_golden_heart_costs_a_digger_from_the_hand():
    s = table(hands=[[DIGGER_3_0, DIGGER_1_2, DIGGER_1_2], []],
              mines=[[GOLDEN_HEART, DIRT, DIRT], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_3_0, 0))
    assert s.phase == Phase.GOLDEN_HEART
    assert legal_actions(s) == [Action(Move.HEART, DIGGER_1_2)]   # one choice per kind
    s = play(s, Action(Move.HEART, DIGGER_1_2))
    assert sorted(s.loot[0]) == sorted([GOLDEN_HEART, DIRT, DIRT]) and s.hands[0] == [DIGGER_1_2]


def test_without_a_digger_in_hand_the_golden_heart_goes_back_and_the_turn_stops():
    s = table(hands=[[DIGGER_3_0, WARRIOR_2], []], mines=[[GOLDEN_HEART, DIRT], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_3_0, 0))
    assert top_first(s, 0)[:2] == [GOLDEN_HEART, DIRT] and s.loot[0] == [] and s.to_move == 1
    assert s.warriors[0] == [[], [], []] and DIGGER_3_0 in s.dwarf_discard
    for seat in range(2):
        assert (len(s.mines[0]) - 1, GOLDEN_HEART) in information_set(s, seat).mine_known[0]
    never = information_set(s, 1).hand_never[0]   # his hidden card is known not to be a Digger
    assert all(never >> k & 1 for k in DWARF_KINDS if CARDS[k].role == Role.DIGGER)


def test_the_ghost_discards_a_dwarf_card_from_the_finders_hand():
    s = table(hands=[[DIGGER_1_2, WARRIOR_2, RING, NAWAK], [WARRIOR_3]], mines=[[GHOST], [DIRT],
                                                                              [DIRT]])
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.hands[0] == sorted([RING, NAWAK]) and WARRIOR_2 in s.dwarf_discard   # Mine cards stay
    assert s.hands[1] == [WARRIOR_3] and GHOST in s.mine_discard


def test_the_ghost_haunts_the_next_hand_when_the_finder_has_no_dwarf_card():
    s = table(3, hands=[[DIGGER_1_2, RING], [], [WARRIOR_3]], mines=[[GHOST], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.hands == [[RING], [], []] and WARRIOR_3 in s.dwarf_discard


def test_the_ghost_takes_each_dwarf_card_of_the_hand_equally_often():
    hand = [WARRIOR_2, WARRIOR_3, DIGGER_3_0, SCOUT_5]
    s = table(hands=[hand + [DIGGER_1_2], []], mines=[[GHOST], [DIRT], [DIRT]])
    taken = Counter()
    for chance in range(2000):
        s.chance = chance * 7919
        after = apply(s, digger(DIGGER_1_2, 0))
        taken.update(Counter(hand) - Counter(after.hands[0]))
    assert chi_square_ok(taken, {k: 1 / len(hand) for k in hand}, 2000)


def test_the_back_door_opens_another_mine_and_the_dig_goes_on_there():
    s = table(hands=[[DIGGER_3_0], []], mines=[[BACK_DOOR], [TREASURE, DIRT, DIRT], [DIRT] * 3],
              warriors=[[[WARRIOR_1], [], []], [[], [], [WARRIOR_3]]])
    s = play(s, digger(DIGGER_3_0, 0))
    assert s.phase == Phase.BACK_DOOR and legal_actions(s) == [
        Action(Move.DOOR, mine=1), Action(Move.DOOR, mine=2)]
    assert s.warriors[0][0] == []   # the emptied mine lost its Warriors
    s = play(s, Action(Move.DOOR, mine=1))
    assert (s.door_owner, s.door_mine) == (0, 1)
    assert sorted(s.loot[0]) == sorted([TREASURE, DIRT])   # two draws left, taken at mine 1
    assert scores(s)[0] == CARDS[TREASURE].vp + CARDS[BACK_DOOR].vp + EMPLOYEE_VP   # + first Dirt


def test_the_back_door_lets_its_owner_ignore_opposing_warriors_at_its_mine():
    s = table(hands=[[DIGGER_1_2], []], warriors=[[[]] * MINES, [[], [WARRIOR_4], [WARRIOR_4]]])
    s.box.remove(BACK_DOOR)
    s.door_owner, s.door_mine = 0, 1
    check_state(s)
    assert [a.mine for a in moves(s, Move.DIGGER)] == [0, 1]


def test_the_throne_room_scores_three_and_curses_the_hand():
    s = table(hands=[[DIGGER_1_2, WARRIOR_2, RING], []], mines=[[THRONE_ROOM], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.loot[0] == [THRONE_ROOM] and s.hands[0] == []
    assert WARRIOR_2 in s.dwarf_discard and RING in s.mine_discard
    assert scores(s)[0] == CARDS[THRONE_ROOM].vp == 3


# --- trophies ------------------------------------------------------------------------------------

def test_the_first_player_to_pick_up_dirt_gets_employee_of_the_month():
    s = table(hands=[[DIGGER_1_2], []], mines=[[DIRT], [DIRT], [DIRT]])
    assert s.employee == NOBODY
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.employee == 0 and scores(s)[0] == EMPLOYEE_VP


def test_a_trophy_passes_to_whoever_gets_as_many_or_more():
    s = table(hands=[[], [DIGGER_1_2]], mines=[[DIRT, DIRT], [DIRT], [DIRT]],
              loot=[[DIRT, DIRT], [DIRT]], to_move=1)
    s.employee = 0
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.employee == 1                         # 2 Dirt each: drawing level takes it
    s = table(3, hands=[[], [DIGGER_1_2], []], mines=[[DIRT], [DIRT], [DIRT]],
              loot=[[DIRT] * 3, [], []], to_move=1)
    s.employee = 0
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.employee == 0                         # 1 Dirt against 3: he keeps it


def test_the_first_rat_slayer_gets_the_exterminator_worth_two():
    s = table(hands=[[DIGGER_1_2], []], mines=[[RAT], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_1_2, 0), fight(use_digger=True))
    assert s.exterminator == 0 and scores(s)[0] == EXTERMINATOR_VP == 2


def test_the_introductory_game_has_no_trophies():
    s = table(intro=True, hands=[[DIGGER_1_2], []], mines=[[DIRT], [DIRT], [DIRT]])
    s = play(s, digger(DIGGER_1_2, 0))
    assert s.employee == NOBODY and scores(s) == (0, 0)


# --- the end -------------------------------------------------------------------------------------

def test_the_game_ends_when_two_mines_are_empty_even_mid_dig():
    s = table(intro=True, hands=[[DIGGER_3_0], []], mines=[[], [DIRT], [TREASURE] * 3])
    s = play(s, digger(DIGGER_3_0, 1))
    assert is_over(s) and legal_actions(s) == []
    assert s.loot[0] == [DIRT] and len(s.mines[2]) == 3   # two draws were never made


def test_the_last_card_of_the_second_mine_is_still_fought_and_scored():
    s = table(intro=True, hands=[[DIGGER_2_1], []], mines=[[], [GOBLIN], [DIRT]],
              warriors=[[[], [WARRIOR_2], []], [[]] * MINES])
    s = play(s, digger(DIGGER_2_1, 1))
    assert s.phase == Phase.FIGHT
    s = play(s, fight(WARRIOR_2))
    assert is_over(s) and scores(s)[0] == CARDS[GOBLIN].vp


def test_scores_add_loot_rings_in_hand_the_back_door_and_trophies():
    s = table(hands=[[RING], []], loot=[[TREASURE, GOBLIN, DIRT, GOLDEN_HEART], [DRAGON, RAT]])
    s.door_owner, s.employee, s.exterminator = 0, 0, 1
    s.box.remove(BACK_DOOR)
    expected0 = (sum(CARDS[k].vp for k in (TREASURE, GOBLIN, DIRT, GOLDEN_HEART)) + CARDS[RING].vp
                 + CARDS[BACK_DOOR].vp + EMPLOYEE_VP)
    assert scores(s) == (expected0, CARDS[DRAGON].vp + EXTERMINATOR_VP)


def test_equal_points_go_to_more_treasures_then_the_win_is_shared():
    s = table(3, loot=[[TREASURE, TREASURE], [GOBLIN], [TREASURE, RAT, DIRT]], intro=True)
    assert scores(s)[0] == scores(s)[1] and winners(s) == (0,) and result(s) == (1.0, 0.0, 0.0)
    s = table(3, loot=[[TREASURE, GOBLIN], [TREASURE, GOBLIN], [DIRT]], intro=True)
    assert winners(s) == (0, 1) and result(s) == (0.5, 0.5, 0.0)


def test_a_player_with_no_legal_action_passes():
    s = table(hands=[[RING, RING, NAWAK, PICKAXE, BEER, BEER], []], seen_hands=True)
    assert legal_actions(s) == [Action(Move.PASS)]
    after = play(s, Action(Move.PASS))
    assert after.to_move == 1 and after.hands == s.hands and not is_over(after)


def test_a_pass_tells_everyone_the_hidden_cards_are_unplayable():
    guards = [[]] * MINES, [[WARRIOR_3]] * MINES
    s = table(hands=[[DIGGER_1_2, DIGGER_1_2, DIGGER_3_0, DIGGER_3_0, RING, RING], []],
              warriors=list(guards))
    s.hand_seen[0] = [RING, RING]
    assert legal_actions(s) == [Action(Move.PASS)]
    s = play(s, Action(Move.PASS))
    never = information_set(s, 1).hand_never[0]
    for kind in DWARF_KINDS:
        playable = CARDS[kind].role != Role.DIGGER   # Warriors, Scouts, Dynamiters could be played
        assert bool(never >> kind & 1) == playable


def test_when_every_player_passes_in_a_row_the_game_ends():
    stuck = [RING, RING, NAWAK, PICKAXE, BEER, BEER]
    blocked = [DIGGER_3_0] * 4 + [DIGGER_1_2] * 2      # no access: seat 0 guards every mine
    s = table(hands=[stuck, blocked], warriors=[[[WARRIOR_3]] * MINES, [[]] * MINES],
              center=[WARRIOR_1, WARRIOR_2, SCOUT_5, DYNAMITER, DIGGER_4_3])
    s = play(s, Action(Move.PASS), Action(Move.PASS))
    assert is_over(s)


# --- information sets and the sampler -------------------------------------------------------------

def test_an_information_set_shows_own_hand_recruits_and_the_table_not_dealt_cards():
    s = new_game(Rules(3), seed=11)
    recruit = next(a for a in legal_actions(s) if a.move == Move.RECRUIT
                   and not CARDS[a.card].play_now)
    s = play(s, recruit)
    mine, theirs = information_set(s, 0), information_set(s, 1)
    assert mine.own_hand == tuple(s.hands[0])
    assert theirs.hand_seen[0] == (recruit.card,) and theirs.hidden[0] == START_HAND
    assert theirs.center == mine.center and theirs.pile_top == s.pile[-1]
    assert theirs.pile_below is None and theirs.mine_known == ((), (), ())


def random_states(configs, games, seed, every=5):
    """States along random games, every few actions and at every decision inside a dig."""
    rng = random.Random(seed)
    for players, intro in configs:
        for game in range(games):
            s = new_game(Rules(players, intro), seed=1000 * seed + game)
            step = 0
            while True:
                if step % every == 0 or s.phase != Phase.TURN:
                    yield s
                if is_over(s):
                    break
                s = apply(s, rng.choice(legal_actions(s)), check=False)
                step += 1


ALL_CONFIGS = [(p, intro) for p in (2, 3, 4) for intro in (True, False)]


def test_sampled_states_agree_with_everything_the_player_knows():
    rng = random.Random(5)
    for s in random_states(ALL_CONFIGS, 2, seed=1, every=9):
        for seat in range(s.rules.players):
            info = information_set(s, seat)
            sample = sample_state(info, rng)
            check_state(sample)
            assert information_set(sample, seat) == info
            if seat == s.to_move:
                assert legal_actions(sample) == legal_actions(s)


def chi_square_ok(observed: Counter, probabilities: dict, n: int) -> bool:
    """Pearson's test at the 0.1% level (Wilson-Hilferty quantile of chi-square)."""
    assert set(observed) <= set(probabilities)
    stat = sum((observed[k] - n * p) ** 2 / (n * p) for k, p in probabilities.items())
    df = len(probabilities) - 1
    z = 3.09   # one-sided 0.1%
    critical = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    return stat < critical


def exact_distribution(pool, slots, outcome, allowed=lambda deal: True):
    """Probability of each outcome when the physical cards of ``pool`` are dealt uniformly into
    ``slots`` places (every permutation equally likely), conditioned on ``allowed``."""
    counts = Counter()
    for order in permutations(range(len(pool)), slots):
        deal = [pool[j] for j in order]
        if allowed(deal):
            counts[outcome(deal)] += 1
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


def small_position(never=0):
    """Seat 0's view with few unknowns: seat 1 holds 2 unseen Dwarf cards, the pile 2 below its
    top; mines 0, 1, 2 hold 2, 1, 1 unseen cards and the box 2 more; the rest is in sight."""
    s = table(intro=True, hands=[[WARRIOR_3], [WARRIOR_2, WARRIOR_2]],
              pile=[DIGGER_4_3, SCOUT_5, DIGGER_3_0], mines=[[RAT, TREASURE], [DIRT], [DIRT]],
              box=[DIRT, DIRT], rest_to="discard")
    s.hand_never[1] = never
    check_state(s)
    dwarf_pool = [WARRIOR_2, WARRIOR_2, DIGGER_3_0, SCOUT_5]
    mine_pool = [RAT, TREASURE, DIRT, DIRT, DIRT, DIRT]
    return information_set(s, 0), dwarf_pool, mine_pool


def test_the_sampler_deals_unseen_dwarf_cards_uniformly():
    info, pool, _ = small_position()
    rng, n = random.Random(17), 3000
    seen = Counter()
    for _ in range(n):
        s = sample_state(info, rng)
        seen[(tuple(s.hands[1]), tuple(s.pile[:-1]))] += 1
    # places: seat 1's two cards (a set), then the pile below its top (bottom first, ordered)
    expected = exact_distribution(pool, 4, lambda d: (tuple(sorted(d[:2])), tuple(d[2:])))
    assert chi_square_ok(seen, expected, n)


def test_the_sampler_respects_known_absences_and_stays_uniform():
    info, pool, _ = small_position(never=mask_of([DIGGER_3_0]))
    rng, n = random.Random(18), 3000
    seen = Counter()
    for _ in range(n):
        s = sample_state(info, rng)
        assert DIGGER_3_0 not in s.hands[1]
        seen[(tuple(s.hands[1]), tuple(s.pile[:-1]))] += 1
    expected = exact_distribution(pool, 4, lambda d: (tuple(sorted(d[:2])), tuple(d[2:])),
                                  allowed=lambda d: DIGGER_3_0 not in d[:2])
    assert chi_square_ok(seen, expected, n)


def test_the_sampler_orders_the_mines_uniformly():
    info, _, mine_pool = small_position()
    rng, n = random.Random(19), 3000
    seen = Counter(tuple(sample_state(info, rng).mines[0]) for _ in range(n))
    expected = exact_distribution(mine_pool, 2, tuple)
    assert chi_square_ok(seen, expected, n)


def test_the_sampler_keeps_what_the_viewer_saw_with_his_scout():
    s = table(hands=[[SCOUT_5], [WARRIOR_2]], mines=[[DRAGON, RAT, ORC], [DIRT] * 3, [DIRT] * 3])
    s = play(s, Action(Move.SCOUT, SCOUT_5, 0))
    rng = random.Random(3)
    for _ in range(20):
        sample = sample_state(information_set(s, 0), rng)
        assert top_first(sample, 0)[:4] == top_first(s, 0)[:4]   # 3 cards and the End card


# --- positions as JSON ---------------------------------------------------------------------------

def test_positions_round_trip_through_json():
    for s in random_states(ALL_CONFIGS, 1, seed=2, every=11):
        for seat in range(s.rules.players):
            info = information_set(s, seat)
            assert from_json(to_json(info)) == info


def start_position_doc(**changes) -> str:
    doc = json.loads(to_json(information_set(new_game(Rules(2), seed=4), 0)))
    for path, value in changes.items():   # seats__1__loot: doc["seats"][1]["loot"]
        edit(doc, [int(key) if key.isdigit() else key for key in path.split("__")], value)
    return json.dumps(doc)


@pytest.mark.parametrize("text, field", [
    ("{not json", "not valid JSON"),
    (start_position_doc(game="chess"), "game"),
    (start_position_doc(rules__players=5), "rules.players"),
    (start_position_doc(center=DELETE), "missing field(s) center"),
    (start_position_doc(seats__1__loot=["gold"]), "seats[1].loot[0]"),
    (start_position_doc(seats__1__hidden=7), "seats[1].hidden"),
    (start_position_doc(mines__0__cards=[None]), "mines[0].cards"),
    (start_position_doc(phase="fight"), "dig"),
    (start_position_doc(phase="dancing"), "phase"),
    (start_position_doc(seats__0__warriors=[["warrior-4"]] * 3), "warrior-4"),
    (start_position_doc(dwarf_pile__top=None), "dwarf_pile.top"),
    (start_position_doc(box=3), "box"),
    (start_position_doc(seats__1__loot=["warrior-2"]), "seats[1].loot[0]"),
    (start_position_doc(trophies__exterminator=2), "trophies.exterminator"),
])
def test_bad_positions_are_refused_naming_the_field(text, field):
    with pytest.raises(InputError) as err:
        from_json(text)
    assert field in str(err.value)


def test_a_field_missing_from_the_position_itself_names_the_position_once():
    with pytest.raises(InputError) as err:
        from_json(start_position_doc(center=DELETE))
    assert str(err.value) == "tunhell position: missing field(s) center"


def test_a_consistent_but_impossible_hidden_count_is_refused():
    doc = start_position_doc(seats__1__hidden=3)
    with pytest.raises(InputError, match="hidden"):
        from_json(doc)


# --- whole games ---------------------------------------------------------------------------------

def play_random_game(players, intro, seed, check=True):
    rng = random.Random(seed)
    s = new_game(Rules(players, intro), seed)
    actions = 0
    while not is_over(s):
        options = legal_actions(s)
        assert options, "a player who is not done must have an action"
        s = apply(s, rng.choice(options), check=False)
        if check:
            check_state(s)
        actions += 1
        assert actions < 20_000, "the game does not end"
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("intro", [True, False])
def test_random_games_reach_the_end(players, intro):
    for seed in range(6):
        s = play_random_game(players, intro, seed)
        assert sum(result(s)) == pytest.approx(1.0)
        assert sum(1 for m in s.mines if not m) >= 2 or s.passes >= players


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("intro", [True, False])
def test_many_random_games_reach_the_end(players, intro):
    for seed in range(100, 300):
        play_random_game(players, intro, seed)


def test_a_seed_fixes_the_whole_game():
    a, b = play_random_game(3, False, 9, check=False), play_random_game(3, False, 9, check=False)
    assert a == b


def test_apply_leaves_its_input_unchanged():
    s = new_game(Rules(2), seed=8)
    before = s.copy()
    for action in legal_actions(s):
        apply(s, action)
    assert s == before
