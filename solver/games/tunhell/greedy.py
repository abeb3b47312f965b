"""Tunhell's greedy bot: hand-written play from one seat's information set, no search.

Every legal action gets a score in rough victory points and the best is played (equal scores:
a random one of them). The habits it encodes:

- **recruit strong cards** while the hand has room: the big Diggers and Warriors first
  (:data:`CARD_QUALITY`), less eagerly as the hand fills, "play now" cards only for what
  playing them is worth;
- **dig when safe**: a dig is worth the expected points of the cards it will draw, card by card,
  known cards (Scout peeks, enemies put back) as they are and unknown ones averaged over the
  unseen Mine cards; an enemy the Warriors at that mine (plus the Digger's bonus) cannot beat
  ends the dig and costs those Warriors; a dig that can end the game counts whether that wins;
- **guard mines**: a Warrior is worth more where it wins access for Diggers, a proud one less
  where it would send its companions away; a Dynamiter where opponents' Warriors outweigh ours;
- **fight cheaply**: of the winning fight choices, the one spending the least combat value (the
  Digger's bonus costs the draws it had left);
- the Golden Heart costs the weakest Digger; the Back Door faces the best-guarded mine;
- under the rule option ``dig_may_stop``, **dig on** while the next card's expected points (and
  what ending the game would bring) are positive, else stop.

Numbers are hand-tuned, not fitted.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from solver.games.tunhell import (
    HAND_LIMIT, MINES, Action, InfoSet, Move, dig_bonus, dig_capacity, unseen_pools)
from solver.games.tunhell.cards import CARDS, DWOUARF, RAT, RING, Deck, Role

# How much having each Dwarf card is worth, in rough victory points.
CARD_QUALITY = {
    "warrior-1": 0.3, "warrior-2": 0.6, "warrior-3": 0.9, "warrior-4": 1.0,
    "digger-2/0": 0.5, "digger-2/+1": 0.8, "digger-4/+3": 1.6, "digger-1/+2": 0.5,
    "digger-3/0": 1.0, "digger-2/+5": 1.2, "scout-5": 0.3, "scout-3": 0.2, "dynamiter": 0.4,
    "machin": 1.2, "dwouarf": 0.6,
}
SPEND_COST = 0.3          # per point of combat value spent in a fight
BONUS_CARD_COST = 0.6     # playing a Bonus (Nawak, the Pickaxe, a Beer) with a Digger
GAME_END_STAKE = 3.0      # a dig that may end the game: + if we would lead, - if not


@dataclass
class View:
    """What the scores need, read once from the information set."""

    info: InfoSet
    seat: int
    mine_odds: dict[int, float]       # an unknown Mine card's kind -> probability
    end_odds: dict[int, float]        # an unknown pile bottom's End card (full game)
    my_points: int
    best_other_points: int

    @property
    def hand(self) -> tuple[int, ...]:
        return self.info.own_hand

    def strength(self, seat: int, mine: int) -> int:
        return sum(CARDS[k].combat for k in self.info.warriors[seat][mine])

    def best_other_strength(self, mine: int) -> int:
        return max(self.strength(o, mine) for o in range(self.info.rules.players)
                   if o != self.seat)


def greedy_action(info: InfoSet, actions: list[Action], rng: random.Random) -> Action:
    """The best scored of ``actions`` (the legal actions of ``info``'s seat, who is to move)."""
    view = read_view(info)
    scored = [(score(view, action), action) for action in actions]
    top = max(s for s, _ in scored)
    return rng.choice([action for s, action in scored if s >= top - 1e-9])


def read_view(info: InfoSet) -> View:
    pools = unseen_pools(info)
    points = [visible_points(info, seat) for seat in range(info.rules.players)]
    return View(info, info.seat, _odds(pools[Deck.MINE]), _odds(pools[Deck.END]),
                points[info.seat], max(p for o, p in enumerate(points) if o != info.seat))


def _odds(cards: list[int]) -> dict[int, float]:
    counts = Counter(cards)
    return {k: n / len(cards) for k, n in counts.items()} if cards else {}


def visible_points(info: InfoSet, seat: int) -> int:
    """Points everyone can count: loot, Rings (always seen joining a hand), door, trophies."""
    points = sum(CARDS[k].vp for k in info.loot[seat])
    points += CARDS[RING].vp * info.hand_seen[seat].count(RING)
    points += 1 if info.door_owner == seat else 0
    points += 1 if info.employee == seat else 0
    points += 2 if info.exterminator == seat else 0
    return points


def score(view: View, action: Action) -> float:
    move = action.move
    if move == Move.RECRUIT:
        return recruit_score(view, action.card)
    if move == Move.DIGGER:
        return dig_score(view, action.card, action.mine, action.cards)
    if move == Move.WARRIOR:
        return warrior_score(view, action.card, action.mine)
    if move == Move.DYNAMITE:
        mine = action.mine
        return 0.35 * (view.best_other_strength(mine) - view.strength(view.seat, mine)) - 0.3
    if move == Move.SCOUT:
        return 0.15
    if move == Move.FIGHT:
        return -fight_cost(view, action)
    if move == Move.HEART:
        return -quality(action.card)
    if move == Move.DOOR:
        return view.best_other_strength(action.mine) + 0.05 * view.info.mine_sizes[action.mine]
    if move == Move.DIG_ON:
        return dig_on_score(view)
    return 0.0     # PASS, the only action when it is legal; STOP (digging on is scored against 0)


def quality(card: int) -> float:
    return CARD_QUALITY.get(CARDS[card].name, 0.0)


def recruit_score(view: View, card: int) -> float:
    if CARDS[card].play_now:      # it must be played at once: worth half its quality
        return 0.5 * quality(card)
    held = len(view.hand)
    eagerness = 0.9 if held <= 3 else 0.6 if held <= 4 else 0.3
    return eagerness * quality(card)


def warrior_score(view: View, card: int, mine: int) -> float:
    own, other = view.strength(view.seat, mine), view.best_other_strength(mine)
    gain = CARDS[card].combat
    value = 0.3 + 0.03 * view.info.mine_sizes[mine] - 0.2 * quality(card)
    if own < other <= own + gain:
        value += 0.8            # wins access for our Diggers
    elif own < other:
        value += 0.2
    if CARDS[card].proud:       # his companions at this mine are discarded
        value -= 0.4 * own
    return value


def fight_cost(view: View, action: Action) -> float:
    """Combat value spent, the Digger counting for the draws it had left."""
    cost = sum(CARDS[k].combat for k in action.cards) + 0.01 * len(action.cards)
    if action.use_digger:
        cost += 1.0 + 0.5 * view.info.dig_left
    return cost


def dig_score(view: View, digger: int, mine: int, bonuses: tuple[int, ...]) -> float:
    """Expected points of the cards drawn, less the value of the cards played."""
    draws = min(dig_capacity(digger, bonuses), view.info.mine_sizes[mine])
    spare = sum(1 for k in view.hand if CARDS[k].role == Role.DIGGER) - 1
    value, alive = expected_draws(view, mine, draws, dig_bonus(digger, bonuses), spare)
    value += game_end_stake(view, mine, draws, value) * alive
    return value - 0.5 * quality(digger) - BONUS_CARD_COST * len(bonuses)


def dig_on_score(view: View) -> float:
    """The next card's expected points, and the stake if drawing it may end the game."""
    info = view.info
    spare = sum(1 for k in view.hand if CARDS[k].role == Role.DIGGER)
    value, alive = expected_draws(view, info.dig_mine, 1, dig_bonus(info.digger, info.boosts),
                                  spare)
    return value + game_end_stake(view, info.dig_mine, 1, value) * alive


def expected_draws(view: View, mine: int, draws: int, bonus: int, spare_diggers: int
                   ) -> tuple[float, float]:
    """(expected gain, probability the dig is still going after ``draws`` draws); the Golden
    Heart needs one of the ``spare_diggers`` left in the hand."""
    info = view.info
    size, known = info.mine_sizes[mine], dict(info.mine_known[mine])
    strength = view.strength(view.seat, mine)
    dog = 1 if DWOUARF in info.warriors[view.seat][mine] else 0
    value, alive = 0.0, 1.0
    for j in range(draws):
        pos = size - 1 - j
        if pos in known:
            odds = {known[pos]: 1.0}
        else:
            odds = view.end_odds if pos == 0 and not info.rules.intro else view.mine_odds
        gain = stop = 0.0
        for card, p in odds.items():
            g, s = card_outcome(view, card, strength, bonus, dog, spare_diggers)
            gain += p * g
            stop += p * s
        value += alive * gain
        alive *= 1.0 - stop
    return value, alive


def card_outcome(view: View, card: int, strength: int, bonus: int, dog: int,
                 spare_diggers: int) -> tuple[float, float]:
    """(points gained, 1 if the dig stops there) for one drawn card."""
    c, full = CARDS[card], not view.info.rules.intro
    if c.role == Role.DIRT:
        return (0.3 if full else 0.1), 0.0
    if c.role == Role.TREASURE:
        return 1.0, 0.0
    if c.role == Role.ENEMY:
        return enemy_outcome(c.combat - dog, c.vp + (0.6 if full and card == RAT else 0.0),
                             strength, bonus)
    if c.role == Role.GOLDEN_HEART:
        return (2.0, 0.0) if spare_diggers > 0 else (0.0, 1.0)
    if c.role == Role.GHOST:
        return -0.4, 0.0
    if c.role == Role.THRONE_ROOM:
        return 3.0 - 0.3 * len(view.hand), 0.0
    if c.role == Role.BACK_DOOR:
        return 1.5, 0.0
    if c.role == Role.RING:
        return (2.0 if len(view.hand) < HAND_LIMIT else 0.0), 0.0
    return 0.6, 0.0             # a Find for the hand: Machin, Dwouarf, a Bonus


def enemy_outcome(need: int, vp: float, strength: int, bonus: int) -> tuple[float, float]:
    if need <= 0:
        return vp, 0.0
    if need <= strength:
        return vp - SPEND_COST * need, 0.0
    if need <= strength + bonus:       # the Digger's bonus is needed: the dig ends
        return vp - SPEND_COST * max(need - bonus, 0) - 0.5, 1.0
    return -0.4 * strength, 1.0        # defeat: the Warriors there are lost


def game_end_stake(view: View, mine: int, draws: int, gain: float) -> float:
    """A dig emptying the second mine ends the game: good if we then lead, bad if not."""
    sizes = view.info.mine_sizes
    ends_game = sum(1 for m in range(MINES) if sizes[m] == 0) == 1 and draws >= sizes[mine] > 0
    if not ends_game:
        return 0.0
    return GAME_END_STAKE if view.my_points + gain > view.best_other_points else -GAME_END_STAKE


__all__ = ["greedy_action", "CARD_QUALITY", "score", "read_view", "visible_points"]
