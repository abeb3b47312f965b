"""Tunhell's heuristic rollout policy: the plain-Python reference of the engine's
``policy_playout`` / ``action_score`` (``kernels/tunhell.pyx``), which search rollouts use.

Unlike the greedy bot (``solver.games.tunhell.greedy``), which plays from one seat's information
set, the rollout policy plays inside a search's deal, a full state: it values a dig by the cards
that deal would really draw. Each legal action gets a score in rough victory points, the habits
being greedy's (recruit strong cards, dig where the cards pay, guard mines, fight cheaply); the
policy plays the first best-scored action or, with probability ``epsilon``, a uniformly random
one. Scores (the engine computes the same in C doubles):

    RECRUIT   play-now card: 0.5 * quality; else eagerness(hand size) * quality
    WARRIOR   0.3 + 0.03 * mine size - 0.2 * quality, + 0.8 if it wins access, + 0.2 if still
              behind, - 0.4 * own strength there if proud
    DYNAMITE  0.35 * (best other strength - own strength) - 0.3
    DIGGER    dig_peek(its capacity, its bonus, Diggers left in hand) - 0.5 * quality - 0.6 per
              Bonus played
    FIGHT     -(combat spent + 0.01 per Warrior + (1 + 0.5 * draws left) if the Digger is used)
    HEART     -quality of the Digger discarded
    DOOR      best other strength at the mine + 0.05 * its size
    DIG_ON    dig_peek(1 card)
    PASS, STOP, SCOUT   0 (a Scout tells a policy that sees the deal nothing)

Random words: one splitmix64 output per decision with more than one action decides the epsilon
draw (``(word >> 11) / 2**53 < epsilon``); a random pick then takes another
(``((word >> 32) * n) >> 32``).
"""
from __future__ import annotations

from solver.games.tunhell.cards import CARDS, DWOUARF, RAT, Role
from solver.games.tunhell.greedy import CARD_QUALITY
from solver.games.tunhell.rules import (
    HAND_LIMIT, MASK64, MINES, Action, Move, Phase, State, apply, dig_bonus, dig_capacity,
    legal_actions, scores, splitmix64, strength)

GAME_END_STAKE = 3.0


def quality(card: int) -> float:
    return CARD_QUALITY.get(CARDS[card].name, 0.0)


def _best_other_strength(s: State, seat: int, mine: int) -> int:
    return max([0] + [strength(s, o, mine) for o in range(s.rules.players) if o != seat])


def _diggers_in_hand(s: State, seat: int) -> int:
    return sum(1 for k in s.hands[seat] if CARDS[k].role == Role.DIGGER)


def dig_peek(s: State, seat: int, mine: int, draws: int, bonus: int, spare: int) -> float:
    """The points of the next ``draws`` cards of ``mine`` in this deal, resolved roughly:
    Warriors are spent on the enemies they beat, an enemy needing the Digger's bonus or beating
    everyone ends the dig, the Golden Heart needs a spare Digger, the Back Door ends the look.
    A dig emptying the second mine ends the game: +3 if we then lead, -3 if not."""
    pile, full = s.mines[mine], not s.rules.intro
    power, held = strength(s, seat, mine), len(s.hands[seat])
    dog = 1 if DWOUARF in s.warriors[seat][mine] else 0
    draws = min(draws, len(pile))
    value = 0.0
    for j in range(draws):
        card = pile[len(pile) - 1 - j]
        role = CARDS[card].role
        stopped = False
        if role == Role.DIRT:
            value += 0.3 if full else 0.1
        elif role == Role.TREASURE:
            value += 1.0
        elif role == Role.ENEMY:
            need = CARDS[card].combat - dog
            vp = CARDS[card].vp + (0.6 if full and card == RAT else 0.0)
            if need <= 0:
                value += vp
            elif need <= power:
                value += vp - 0.3 * need
                power -= need
            elif need <= power + bonus:
                value += vp - 0.3 * max(need - bonus, 0) - 0.5
                stopped = True
            else:
                value -= 0.4 * power
                stopped = True
        elif role == Role.GOLDEN_HEART:
            if spare > 0:
                value += 2.0
                spare -= 1
            else:
                stopped = True
        elif role == Role.GHOST:
            value -= 0.4
        elif role == Role.THRONE_ROOM:
            value += 3.0 - 0.3 * held
        elif role == Role.BACK_DOOR:
            value += 1.5
            stopped = True
        elif role == Role.RING:
            value += 2.0 if held < HAND_LIMIT else 0.0
        else:
            value += 0.6
        if stopped:
            return value
    empty = sum(1 for m in range(MINES) if not s.mines[m])
    if empty == 1 and draws >= len(pile) > 0:
        points = scores(s)
        best_other = max(points[o] for o in range(s.rules.players) if o != seat)
        value += GAME_END_STAKE if points[seat] + value > best_other else -GAME_END_STAKE
    return value


def action_score(s: State, action: Action) -> float:
    """The policy's score of a legal action of the seat to move (module docstring)."""
    p, move, card, mine = s.to_move, action.move, action.card, action.mine
    if move == Move.RECRUIT:
        if CARDS[card].play_now:
            return 0.5 * quality(card)
        held = len(s.hands[p])
        return (0.9 if held <= 3 else 0.6 if held <= 4 else 0.3) * quality(card)
    if move == Move.WARRIOR:
        own, other = strength(s, p, mine), _best_other_strength(s, p, mine)
        value = 0.3 + 0.03 * len(s.mines[mine]) - 0.2 * quality(card)
        if own < other <= own + CARDS[card].combat:
            value += 0.8
        elif own < other:
            value += 0.2
        if CARDS[card].proud:
            value -= 0.4 * own
        return value
    if move == Move.DYNAMITE:
        return 0.35 * (_best_other_strength(s, p, mine) - strength(s, p, mine)) - 0.3
    if move == Move.DIGGER:
        return (dig_peek(s, p, mine, dig_capacity(card, action.cards),
                         dig_bonus(card, action.cards), _diggers_in_hand(s, p) - 1)
                - 0.5 * quality(card) - 0.6 * len(action.cards))
    if move == Move.FIGHT:
        cost = sum(CARDS[k].combat for k in action.cards) + 0.01 * len(action.cards)
        if action.use_digger:
            cost += 1.0 + 0.5 * s.dig_left
        return -cost
    if move == Move.HEART:
        return -quality(card)
    if move == Move.DOOR:
        return _best_other_strength(s, p, mine) + 0.05 * len(s.mines[mine])
    if move == Move.DIG_ON:
        return dig_peek(s, p, s.dig_mine, 1, dig_bonus(s.digger, s.boosts),
                        _diggers_in_hand(s, p))
    return 0.0


def policy_choice(s: State, actions: list[Action], rng: int, epsilon: float) -> tuple[int, int]:
    """(index played, the generator's next state): the first best-scored action, or with
    probability ``epsilon`` a uniformly random one."""
    if len(actions) == 1:
        return 0, rng
    rng, word = splitmix64(rng)
    if (word >> 11) * (1.0 / 9007199254740992.0) < epsilon:
        rng, word = splitmix64(rng)
        return ((word >> 32) * len(actions)) >> 32, rng
    best, top = 0, action_score(s, actions[0])
    for i in range(1, len(actions)):
        score = action_score(s, actions[i])
        if score > top + 1e-9:
            best, top = i, score
    return best, rng


def policy_playout(s: State, seed: int, epsilon: float) -> State:
    """The game played to its end by the policy from ``s`` (choice generator: splitmix64 from
    ``seed``, as the engine's ``policy_playout``)."""
    rng = seed & MASK64
    while s.phase != Phase.OVER:
        actions = legal_actions(s)
        if not actions:
            break
        i, rng = policy_choice(s, actions, rng, epsilon)
        s = apply(s, actions[i], check=False)
    return s


__all__ = ["action_score", "dig_peek", "policy_choice", "policy_playout", "quality"]
