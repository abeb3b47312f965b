"""The Cython Tunhell engine (kernels/tunhell.pyx) plays exactly like the reference
(solver/games/tunhell.py): the same legal actions in the same order, the same whole state after
every action, the same scores and result, on random games of every player count, introductory and
full, and from sampled and hand-made positions that random games rarely reach."""
from dataclasses import replace

import pytest

from kernels import tunhell as K
from solver.games import get as game_record
from solver.games.tunhell import (
    Action, Move, Phase, Rules, apply, information_set, is_over, legal_actions, new_game, result,
    sample_state, scores, splitmix64)
from solver.games.tunhell.cards import (
    BEER, CARDS, DIGGER_1_2, DIGGER_2_0, DIGGER_2_1, DIGGER_2_5, DIGGER_3_0, DIGGER_4_3, DIRT,
    DYNAMITER, GOBLIN, NAWAK, PICKAXE, RING, SCOUT_3, SCOUT_5, TROLL, WARRIOR_1, WARRIOR_2,
    WARRIOR_3, WARRIOR_4)
from solver.games.tunhell.engine import from_reference, to_action, to_code, to_reference
from test_tunhell_rules import table   # the rules tests' position builder (tests/ is on the path)

CONFIGS = [(players, intro) for players in (2, 3, 4) for intro in (True, False)]
IDS = [f"{players}p-{'intro' if intro else 'full'}" for players, intro in CONFIGS]


def assert_same_game(engine, state):
    """Engine and reference agree on everything a caller can ask."""
    assert to_reference(engine) == state
    assert engine.legal_actions() == [to_code(a) for a in legal_actions(state)]
    assert engine.is_over() == is_over(state)
    assert engine.current_player() == state.to_move
    if is_over(state):
        assert engine.scores() == scores(state)
        assert engine.result() == pytest.approx(result(state))


def play_both(state, rng, max_actions=None):
    """Play random actions (chosen by index) on the reference and the engine side by side,
    comparing after every action; returns the final reference state."""
    engine = from_reference(state)
    assert_same_game(engine, state)
    played = 0
    while not is_over(state) and (max_actions is None or played < max_actions):
        options = legal_actions(state)
        index = rng.randrange(len(options))
        state = apply(state, options[index], check=False)
        engine.apply_index(index)
        assert_same_game(engine, state)
        played += 1
    return state


def reference_playout(state, seed):
    """The reference driven like the engine's random_playout: index = the high 32 bits of a
    splitmix64 output scaled by the count."""
    rng, played = seed, 0
    while not is_over(state):
        options = legal_actions(state)
        rng, out = splitmix64(rng)
        state = apply(state, options[(out >> 32) * len(options) >> 32], check=False)
        played += 1
    return state, played


# --- the engine's copies of the reference's data -------------------------------------------------

def test_the_card_table_copies_the_reference():
    for card, row in zip(CARDS, K.card_table(), strict=True):
        assert row == {"deck": card.deck, "role": card.role, "count": card.count,
                       "combat": card.combat, "vp": card.vp, "dig": card.dig,
                       "bonus": card.bonus, "explore": card.explore,
                       "play_now": card.play_now, "proud": card.proud,
                       "to_hand": card.to_hand, "full_only": card.full_only}, card.name


def test_the_engine_implements_the_references_rules_version():
    assert K.RULES_VERSION == game_record("tunhell").info.rules_version


@pytest.mark.parametrize("players,intro", CONFIGS, ids=IDS)
def test_setup_deals_the_same_game_from_the_same_seed(players, intro):
    for seed in (0, 1, 2**64 - 1):
        state = new_game(Rules(players, intro), seed)
        engine = K.TunhellEngine(players, intro, seed)
        assert_same_game(engine, state)
        assert to_reference(from_reference(state)) == state


def test_action_codes_round_trip_every_kind_of_action():
    actions = [Action(Move.PASS), Action(Move.RECRUIT, SCOUT_3),
               Action(Move.WARRIOR, WARRIOR_4, 2), Action(Move.SCOUT, SCOUT_5, 1),
               Action(Move.DYNAMITE, DYNAMITER, 0),
               Action(Move.DIGGER, DIGGER_2_1, 1, (NAWAK, PICKAXE, BEER, BEER)),
               Action(Move.FIGHT, cards=(WARRIOR_1,) * 7 + (WARRIOR_2,) * 5 + (WARRIOR_3,) * 4,
                      use_digger=True),
               Action(Move.FIGHT, cards=(WARRIOR_4,)), Action(Move.HEART, DIGGER_4_3),
               Action(Move.DOOR, mine=2)]
    codes = [to_code(a) for a in actions]
    assert [to_action(c) for c in codes] == actions
    assert len(set(codes)) == len(codes)


@pytest.mark.parametrize("action", [
    Action(Move.RECRUIT), Action(Move.PASS, WARRIOR_1), Action(Move.WARRIOR, WARRIOR_1),
    Action(Move.DIGGER, DIGGER_2_1, 0, (WARRIOR_1,)), Action(Move.FIGHT, cards=(NAWAK,)),
    Action(Move.SCOUT, SCOUT_5, 0, use_digger=True)], ids=str)
def test_malformed_actions_have_no_code(action):
    with pytest.raises(ValueError):
        to_code(action)


# --- engine against reference --------------------------------------------------------------------

@pytest.mark.parametrize("players,intro", CONFIGS, ids=IDS)
def test_engine_matches_reference_action_by_action(players, intro, rng):
    for seed in range(30):
        end = play_both(new_game(Rules(players, intro), seed), rng)
        assert sum(result(end)) == pytest.approx(1.0)


@pytest.mark.slow
@pytest.mark.parametrize("players,intro", CONFIGS, ids=IDS)
def test_engine_matches_reference_on_many_games(players, intro, rng):
    for seed in range(1000, 1300):
        play_both(new_game(Rules(players, intro), seed), rng)


@pytest.mark.parametrize("players,intro", CONFIGS, ids=IDS)
def test_engine_matches_reference_from_sampled_positions(players, intro, rng):
    """Positions a search would start from: a truth sampled for one seat mid-game (any chance
    state, known absences, Scout knowledge), then played on both to the end."""
    for game in range(2):
        state = new_game(Rules(players, intro), seed=500 + game)
        for _ in range(rng.randrange(40, 160)):
            if is_over(state):
                break
            state = apply(state, rng.choice(legal_actions(state)), check=False)
        sample = sample_state(information_set(state, rng.randrange(players)), rng)
        play_both(sample, rng)


@pytest.mark.parametrize("players,intro", CONFIGS, ids=IDS)
def test_random_playout_plays_the_references_game(players, intro):
    for seed in range(4):
        state = new_game(Rules(players, intro), seed)
        engine = from_reference(state)
        played = engine.random_playout(seed * 7919)
        end, expected = reference_playout(state, seed * 7919)
        assert played == expected and engine.is_over()
        assert_same_game(engine, end)


def test_random_games_are_the_documented_playouts():
    expected = 0
    for i in range(5):
        engine = K.TunhellEngine(3, False, 40 + i)
        expected += engine.random_playout((40 + i) ^ K.POLICY_SALT)
    assert K.random_games(3, False, 40, 5) == expected


@pytest.mark.parametrize("players,intro", CONFIGS, ids=IDS)
def test_random_playouts_reach_the_end(players, intro):
    for seed in range(200):
        engine = K.TunhellEngine(players, intro, seed)
        assert engine.random_playout(seed) > 0
        assert engine.is_over() and engine.legal_actions() == []
        assert sum(engine.result()) == pytest.approx(1.0)
        state = to_reference(engine)
        assert sum(1 for m in state.mines if not m) >= 2 or state.passes >= players


# --- rare situations, set up by hand -------------------------------------------------------------

def play_scripted(state, *actions, rng):
    """Apply ``actions`` to both, comparing after each, then finish the game at random."""
    engine = from_reference(state)
    for action in actions:
        state = apply(state, action)
        engine.apply(to_code(action))
        assert_same_game(engine, state)
    play_both(state, rng)
    return state


def test_every_player_passing_ends_the_game(rng):
    stuck = [RING, RING, NAWAK, PICKAXE, BEER, BEER]
    blocked = [DIGGER_3_0] * 4 + [DIGGER_1_2] * 2      # seat 0 guards every mine
    state = table(hands=[stuck, blocked], warriors=[[[WARRIOR_3]] * 3, [[]] * 3],
                  center=[WARRIOR_1, WARRIOR_2, SCOUT_5, DYNAMITER, DIGGER_4_3])
    end = play_scripted(state, Action(Move.PASS), Action(Move.PASS), rng=rng)
    assert is_over(end)


def test_a_find_nobody_has_room_for_is_discarded(rng):
    five, six = [WARRIOR_1] * 5, [WARRIOR_3] * 3 + [SCOUT_3] * 3
    state = table(2, hands=[five + [DIGGER_3_0], six],
                  mines=[[NAWAK, PICKAXE, DIRT], [DIRT], [DIRT]])
    after = play_scripted(state, Action(Move.DIGGER, DIGGER_3_0, 0), rng=rng)
    assert NAWAK in after.hands[0] and PICKAXE in after.mine_discard


def test_an_empty_pile_with_an_empty_discard_leaves_the_center_short(rng):
    """Every Dwarf card is in a hand, the center or in front of a mine: nothing to reshuffle."""
    hands = [[DIGGER_2_1] * 4 + [DIGGER_4_3], [DIGGER_1_2] * 5 + [DIGGER_2_5],
             [DIGGER_3_0] * 4 + [DIGGER_2_0] * 2, [DIGGER_2_0] * 2 + [SCOUT_5] * 2 + [SCOUT_3] * 2]
    warriors = [[[WARRIOR_1] * 7, [], []], [[WARRIOR_2] * 4, [], []],
                [[], [WARRIOR_3] * 3, []], [[], [WARRIOR_4], [WARRIOR_4]]]
    state = table(4, hands=hands, warriors=warriors,
                  center=[SCOUT_3, DYNAMITER, DYNAMITER, WARRIOR_2, WARRIOR_3])
    assert state.pile == [] and state.dwarf_discard == []
    engine = from_reference(state)
    state = apply(state, Action(Move.RECRUIT, WARRIOR_2))
    engine.apply(to_code(Action(Move.RECRUIT, WARRIOR_2)))
    assert len(state.center) == 4
    assert_same_game(engine, state)
    play_both(state, rng)


def test_a_fight_with_every_small_warrior_lists_all_its_choices(rng):
    """The largest fight the game allows fits the engine's action buffer."""
    state = table(hands=[[DIGGER_2_5], []], mines=[[TROLL, GOBLIN], [DIRT], [DIRT]],
                  center=[DIGGER_3_0, DIGGER_1_2, SCOUT_5, SCOUT_3, DYNAMITER],
                  warriors=[[[WARRIOR_1] * 7 + [WARRIOR_2] * 5 + [WARRIOR_3] * 4, [], []],
                            [[]] * 3])
    engine = from_reference(state)
    state = apply(state, Action(Move.DIGGER, DIGGER_2_5, 0))
    engine.apply(to_code(Action(Move.DIGGER, DIGGER_2_5, 0)))
    assert state.phase == Phase.FIGHT and len(legal_actions(state)) > 400
    assert_same_game(engine, state)
    play_both(state, rng)


# --- the Python wrapper --------------------------------------------------------------------------

def test_a_clone_is_independent_of_its_original(rng):
    engine = K.TunhellEngine(3, False, 21)
    for _ in range(30):
        engine.apply_index(rng.randrange(len(engine.legal_actions())))
    before = engine.fields()
    twin = engine.clone()
    assert twin.fields() == before
    twin.random_playout(5)
    assert twin.is_over() and engine.fields() == before
    engine.random_playout(5)          # the same choices from the same state: the same game
    assert engine.fields() == twin.fields()


def test_an_illegal_action_is_refused_and_changes_nothing():
    engine = K.TunhellEngine(2, False, 3)
    before = engine.fields()
    with pytest.raises(ValueError, match="illegal"):
        engine.apply(to_code(Action(Move.DOOR, mine=0)))
    with pytest.raises(IndexError):
        engine.apply_index(len(engine.legal_actions()))
    assert engine.fields() == before


def test_positions_that_do_not_fit_the_engine_are_refused():
    state = new_game(Rules(2), seed=1)
    lost_card = replace(state, center=state.center[1:])
    with pytest.raises(ValueError, match="card kinds"):
        from_reference(lost_card)
    crowded = replace(state, warriors=[[[WARRIOR_4, WARRIOR_1], [], []], [[], [], []]])
    with pytest.raises(ValueError, match="proud"):
        from_reference(crowded)
    fight_without_dig = replace(state, phase=Phase.FIGHT, pending=TROLL)
    with pytest.raises(ValueError, match="dig"):
        from_reference(fight_without_dig)
