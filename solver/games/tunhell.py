"""Tunhell rules, introductory and full game, 2-4 players: the plain-Python reference (the oracle
for the Cython engine).

The rulebook is ``shared/rules/tunhell.txt``; ``shared/rules/DECISIONS.md`` fixes card values, the
two symbols ("play now", "stop hand" = proud) and the open points. This module follows both, card
by card, and never imports the compiled kernels. Cards are small integer ids into the card table
of :mod:`solver.games.tunhell_cards` (one id per kind; copies are interchangeable).

The table (seats clockwise from seat 0, who starts; mines 0, 1, 2)::

    recruitment center: 5 face-up Dwarf cards     Dwarf pile: face up, its top seen, never taken
    mine 0   mine 1   mine 2                       piles of Mine cards, an End of Mine card under
      |        |        |                          each in the full game; lists are bottom first
    seat s's Warriors in front of each mine; his loot, hand (at most 6), and maybe the Back Door

API: :func:`new_game` (a :class:`State`, the whole truth), :func:`legal_actions`, :func:`apply`
(pure), :func:`current_player`, :func:`is_over`, :func:`scores`, :func:`winners`, :func:`result`;
:func:`information_set` (an :class:`InfoSet`: one seat's knowledge), :func:`sample_state` (a
truth consistent with it), :func:`to_json` / :func:`from_json` (an InfoSet as JSON, schema in
:func:`to_json`); :func:`check_state` (invariants, for tests).

Every decision is an :class:`Action` from :func:`legal_actions`; draws from a mine and their
effects happen inside :func:`apply` until the next decision. Phases (whose decision is awaited):

    TURN      recruit a Dwarf (by kind) or play one (Warrior/Digger/Scout/Dynamiter at a mine,
              a Digger with any multiset of the Bonuses in hand); PASS only when nothing is legal
    PLAY_NOW  the "play now" card just recruited must be played: its plays only
    FIGHT     a beatable enemy was drawn: which Warriors (multiset of values) and whether the
              Digger's bonus; every choice reaching the enemy's value, and only those
    GOLDEN_HEART  which Digger kind to discard from the hand to carry the Golden Heart
    BACK_DOOR the mine the Back Door is placed facing
    OVER      the game is over

Action order (a C engine lists them the same way): TURN: RECRUIT by card id, then plays by hand
card id, mine, Bonus multiset (Nawak 0..1, Pickaxe 0..1, Beer 0..n, nested in that order);
FIGHT: W1 count, W2, W3, W4 (0..n each, nested), Digger bonus unused then used.

Chance: the state carries a splitmix64 generator (``State.chance``). Setup, Dwarf pile reshuffles
(Fisher-Yates over the sorted discards) and the Ghost's random pick draw from it, so a state alone
fixes its future and :func:`apply` needs no random argument. ``draw below n`` is ``output % n``.

Knowledge kept in the truth so information sets are exact: ``hand_seen[s]`` (cards every player
knows seat s holds: recruited cards and Finds), ``hand_never[s]`` (card kinds the rest of his hand
cannot hold, learnt when he could not carry the Golden Heart or had to pass), ``seen[s][m]``
(bit i: seat s knows the card at position i from the bottom of mine m: his Scout peeks, and cards
put back face down, which everyone saw).

Decisions beyond DECISIONS.md
-----------------------------
1. A "play now" card dealt at setup is an ordinary hand card: the rule binds at recruiting only.
2. The play-now card is played as a separate decision (phase PLAY_NOW) right after the recruit;
   the center is refilled before it, as the rulebook refills at once.
3. Recruiting names a card kind: two identical center cards are one choice (they are the same).
4. Warriors, Diggers, Scouts and Dynamiters target only mines that still hold cards: an empty
   mine is gone (Warriors there were discarded). A Dynamiter may target a mine without Warriors
   ("the mine of your choice").
5. A proud Warrior blocks every other Warrior of its owner at that mine, proud or not, Dwouarf
   included; played where its owner has Warriors (Dwouarf included), it discards them.
6. Dwouarf counts 0 in the access test; his -1 applies to enemies met at the mine where he stands.
7. Digging is compulsory: the Digger draws until its capacity is spent, the mine is empty or
   something stops it ("the player continues to draw if their Digger's capacity allows it").
   Every card drawn counts against the capacity, whatever it is. So no turn needs an
   "end of turn" decision: a turn is one action and what follows from it.
8. Fights: a choice is a multiset of the player's Warriors at the mine plus, optionally, the
   Digger; any choice whose total reaches the enemy's value is legal, over-spends included. The
   Digger may join only if its combat bonus is positive (a bonus of 0 adds nothing to "use").
   An enemy worth 0 or less (a Rat facing Dwouarf) is beaten without discarding anything.
9. Bonuses may go with any Digger, play-now Diggers and Machin included, in any multiset. Each
   Beer doubles the Digger's printed values (two Beers: x4, "cumulative"); the Sword (+2 combat)
   and the Pickaxe (+2 digging) are added after, never doubled.
10. A Digger used in a fight, defeated, or at the end of the turn is discarded with its Bonuses.
11. Rings follow the Find rule when the hand is full: next player with room, else discarded.
12. The Golden Heart must be carried when the player can; he chooses which Digger kind (Machin
    counts) to discard. If he cannot, everyone learns his hand holds no Digger.
13. Ghost: a "Dwarf card" is a card of the Dwarf deck (Dwarf back); Machin, Dwouarf, Bonuses and
    Rings are Mine cards and are never taken. The search starts with the finder's hand and goes
    clockwise; "the player to your left" is the next seat. Each Dwarf card of that hand is equally
    likely to be taken; the card taken is shown to all.
14. All discards are public (cards discarded were played face up, or shown: Ghost, Throne Room).
    Mine cards (Machin, Dwouarf, Bonuses, Ghosts, Finds nobody has room for) go to the Mine discard
    pile, which is never reshuffled; only the Dwarf discard forms new Dwarf piles.
15. A drawn card is resolved first; then, if its mine is empty, the Warriors there are discarded;
    then the game ends if two mines are empty. So the card that ends the game still scores (and a
    Throne Room still empties its finder's hand), and a dig in progress stops there.
16. Back Door: placed facing a mine still holding cards (the source mine is empty); the dig goes
    on there without an access test. If its draw ends the game, its finder still has it (1 VP).
17. When the Dwarf pile runs out it is at once replaced by the shuffled discards; if both are
    empty the center stays short and is topped up at the end of a later turn.
18. A player with no legal action passes (everyone learns he holds no playable kind); when every
    player has passed in a row nothing can change any more, and the game ends and is scored.
19. Tie-break "more Treasure cards" counts the plain Treasure cards (id ``treasure``) in the loot.
    Players still tied share the win: :func:`result` gives each of k winners 1/k, others 0.
20. An enemy or Golden Heart put back face down is known to all as the top of that mine.
21. When a seat plays or loses a card of a kind everyone knew he held, observers take it to be that
    known card (as multisets the two readings of his hand are the same).
22. :func:`sample_state` is uniform over the full states consistent with an information set. That
    is the Bayesian posterior except for what players' choices reveal and one chance event: a
    Ghost striking a hand with unseen cards is likelier when more of them match the card taken.
23. Trophies exist only in the full game. Trophy passing compares loot counts after each card.
24. Seat 0 starts (the longest beard is not modelled); setup deals the hands one card at a time.
"""
from __future__ import annotations

import json
import math
import random
from bisect import insort
from collections import Counter
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import product

from solver.errors import InputError
from solver.games import GameInfo, register
from solver.games.tunhell_cards import (
    ALL_KINDS_MASK, BACK_DOOR, BEER, BY_NAME, CARDS, DIGGER_MASK, DIRT, DWARF_KINDS, DWARF_MASK,
    DWOUARF,
    END_KINDS, FIGHTERS, NAWAK, NO_CARD, PICKAXE, RAT, RING, TREASURE, Deck, Role, game_cards,
    kinds_in, mask_of, name)

INFO = register(GameInfo(
    name="tunhell", min_players=2, max_players=4, perfect_information=False, chance=True,
    rules_version=1, summary="Tunhell: recruit dwarves, dig three mines, fight, score the loot"))

MINES = 3
HAND_LIMIT = 6
CENTER_SIZE = 5
START_HAND = 4
SET_ASIDE = {True: 7, False: 9}   # Mine cards put back in the box: introductory / full game
END_SET_ASIDE = 1                 # full game: End of Mine cards put back in the box
EMPLOYEE_VP = 1                   # trophy for the most Dirt
EXTERMINATOR_VP = 2               # trophy for the most Rats
NOBODY = -1
NO_MINE = -1
MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Rules:
    players: int = 2
    intro: bool = False

    def __post_init__(self):
        if not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise InputError(f"Tunhell is for 2 to 4 players, got {self.players!r}")
        if not isinstance(self.intro, bool):
            raise InputError(f"intro must be true or false, got {self.intro!r}")


class Phase(IntEnum):
    TURN = 0
    PLAY_NOW = 1
    FIGHT = 2
    GOLDEN_HEART = 3
    BACK_DOOR = 4
    OVER = 5


class Move(IntEnum):
    PASS = 0
    RECRUIT = 1    # card: the center card kind taken
    WARRIOR = 2    # card, mine
    DIGGER = 3     # card, mine, cards: the Bonuses played with it
    SCOUT = 4      # card, mine
    DYNAMITE = 5   # card, mine
    FIGHT = 6      # cards: the Warriors discarded; use_digger: the Digger's bonus is used
    HEART = 7      # card: the Digger discarded from the hand to carry the Golden Heart
    DOOR = 8       # mine: where the Back Door is placed


@dataclass(frozen=True, order=True)
class Action:
    move: Move
    card: int = NO_CARD
    mine: int = NO_MINE
    cards: tuple[int, ...] = ()
    use_digger: bool = False

    def __str__(self) -> str:
        extra = "+".join(name(c) for c in self.cards)
        if self.move == Move.PASS:
            return "pass"
        if self.move == Move.RECRUIT:
            return f"recruit {name(self.card)}"
        if self.move == Move.DIGGER:
            with_bonuses = f" with {extra}" if extra else ""
            return f"digger {name(self.card)} at mine {self.mine}{with_bonuses}"
        if self.move in (Move.WARRIOR, Move.SCOUT, Move.DYNAMITE):
            return f"{self.move.name.lower()} {name(self.card)} at mine {self.mine}"
        if self.move == Move.FIGHT:
            spent = [extra] if extra else []
            return "fight with " + (" and ".join(spent + (["digger"] if self.use_digger else []))
                                    or "nothing")
        if self.move == Move.HEART:
            return f"carry the golden heart, discarding {name(self.card)}"
        return f"place the back door at mine {self.mine}"


@dataclass
class State:
    """The whole truth. Multisets (hands, center, discards, loot, Warriors) are sorted lists of
    card ids; piles are lists bottom first (the top is the last element). Mutable for speed inside
    :func:`apply`, which copies it: treat a State you were given as read-only."""

    rules: Rules
    mines: list[list[int]]               # 3 piles of Mine cards, bottom first
    box: list[int]                       # cards set aside at setup: nobody ever sees them
    pile: list[int]                      # Dwarf pile, bottom first; its top (last) is face up
    shuffles: int                        # times the Dwarf discards became a new pile
    center: list[int]                    # the recruitment center
    dwarf_discard: list[int]
    mine_discard: list[int]
    hands: list[list[int]]               # per seat
    hand_seen: list[list[int]]           # per seat: the part of the hand everyone knows
    hand_never: list[int]                # per seat: kinds (bit mask) the unseen part cannot hold
    warriors: list[list[list[int]]]      # [seat][mine]
    loot: list[list[int]]                # per seat
    seen: list[list[int]]                # [seat][mine]: bit i = knows position i from the bottom
    door_owner: int = NOBODY
    door_mine: int = NO_MINE
    employee: int = NOBODY               # holder of the Employee of the Month trophy
    exterminator: int = NOBODY           # holder of the Exterminator trophy
    to_move: int = 0
    phase: Phase = Phase.TURN
    pending: int = NO_CARD               # card being resolved (FIGHT, GOLDEN_HEART, BACK_DOOR) or
    #                                      the play-now card just recruited (PLAY_NOW, in the hand)
    dig_mine: int = NO_MINE              # a dig in progress: where, with what, draws left
    digger: int = NO_CARD
    boosts: list[int] = field(default_factory=list)
    dig_left: int = 0
    passes: int = 0                      # passes in a row
    turn: int = 0
    chance: int = 0                      # splitmix64 state

    def copy(self) -> State:
        twice = lambda rows: [list(r) for r in rows]  # noqa: E731
        return State(
            self.rules, twice(self.mines), list(self.box), list(self.pile), self.shuffles,
            list(self.center), list(self.dwarf_discard), list(self.mine_discard),
            twice(self.hands), twice(self.hand_seen), list(self.hand_never),
            [twice(w) for w in self.warriors], twice(self.loot), twice(self.seen),
            self.door_owner, self.door_mine, self.employee, self.exterminator, self.to_move,
            self.phase, self.pending, self.dig_mine, self.digger, list(self.boosts), self.dig_left,
            self.passes, self.turn, self.chance)


# --- chance --------------------------------------------------------------------------------------

def splitmix64(x: int) -> tuple[int, int]:
    """One step of splitmix64: (next state, output). Easy to mirror in C with uint64 arithmetic."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def _chance_below(s: State, n: int) -> int:
    s.chance, out = splitmix64(s.chance)
    return out % n


def _shuffle(s: State, cards: list[int]) -> None:
    for i in range(len(cards) - 1, 0, -1):
        j = _chance_below(s, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


# --- setup ---------------------------------------------------------------------------------------

def _deck_list(deck: Deck, intro: bool) -> list[int]:
    return [k for k, n in game_cards(deck, intro).items() for _ in range(n)]


def new_game(rules: Rules = Rules(), seed: int = 0) -> State:
    """Setup as the rulebook describes it, shuffled by splitmix64 from ``seed``."""
    n = rules.players
    s = State(rules, [[] for _ in range(MINES)], [], [], 0, [], [], [], [[] for _ in range(n)],
              [[] for _ in range(n)], [0] * n, [[[] for _ in range(MINES)] for _ in range(n)],
              [[] for _ in range(n)], [[0] * MINES for _ in range(n)], chance=seed & MASK64)
    mine_cards = _deck_list(Deck.MINE, rules.intro)
    _shuffle(s, mine_cards)
    aside = SET_ASIDE[rules.intro]
    s.box, rest = mine_cards[:aside], mine_cards[aside:]
    per_mine = len(rest) // MINES
    s.mines = [rest[m * per_mine:(m + 1) * per_mine] for m in range(MINES)]
    if not rules.intro:
        ends = _deck_list(Deck.END, False)
        _shuffle(s, ends)
        s.box += ends[:END_SET_ASIDE]
        for m in range(MINES):      # the End of Mine card lies under the pile
            s.mines[m].insert(0, ends[END_SET_ASIDE + m])
    s.box.sort()
    s.pile = _deck_list(Deck.DWARF, False)
    _shuffle(s, s.pile)
    for _ in range(START_HAND):
        for seat in range(n):
            insort(s.hands[seat], s.pile.pop())
    for _ in range(CENTER_SIZE):
        insort(s.center, s.pile.pop())
    return s


# --- the table -----------------------------------------------------------------------------------

def _next(s: State, seat: int) -> int:
    return (seat + 1) % s.rules.players


def _open_mines(s: State) -> list[int]:
    return [m for m in range(MINES) if s.mines[m]]


def strength(s: State, seat: int, mine: int) -> int:
    """Combat value of a seat's Warriors in front of a mine."""
    return sum(CARDS[k].combat for k in s.warriors[seat][mine])


def has_access(s: State, seat: int, mine: int) -> bool:
    """A Digger may enter if its player's Warriors there are at least each opponent's (compared one
    by one), or through his Back Door."""
    if s.door_owner == seat and s.door_mine == mine:
        return True
    own = strength(s, seat, mine)
    return all(strength(s, other, mine) <= own for other in range(s.rules.players) if other != seat)


def _has_proud(s: State, seat: int, mine: int) -> bool:
    return any(CARDS[k].proud for k in s.warriors[seat][mine])


def _targets(s: State, seat: int, card: int) -> list[int]:
    """Mines where ``seat`` may play ``card`` now (empty: the card cannot be played)."""
    role = CARDS[card].role
    if role == Role.WARRIOR:
        return [m for m in _open_mines(s) if not _has_proud(s, seat, m)]
    if role == Role.DIGGER:
        return [m for m in _open_mines(s) if has_access(s, seat, m)]
    if role in (Role.SCOUT, Role.DYNAMITER):
        return _open_mines(s)
    return []   # Bonuses go only with a Digger; Rings are never played


def _boost_choices(hand: list[int]) -> list[tuple[int, ...]]:
    """Every multiset of the Bonuses in a hand (the empty one first)."""
    have = Counter(hand)
    return [(NAWAK,) * sword + (PICKAXE,) * pick + (BEER,) * beer
            for sword in range(min(1, have[NAWAK]) + 1)
            for pick in range(min(1, have[PICKAXE]) + 1)
            for beer in range(have[BEER] + 1)]


def _plays(s: State, seat: int, card: int) -> list[Action]:
    role = CARDS[card].role
    mines = _targets(s, seat, card)
    if role == Role.WARRIOR:
        return [Action(Move.WARRIOR, card, m) for m in mines]
    if role == Role.DIGGER:
        boosts = _boost_choices(s.hands[seat])
        return [Action(Move.DIGGER, card, m, b) for m in mines for b in boosts]
    if role == Role.SCOUT:
        return [Action(Move.SCOUT, card, m) for m in mines]
    if role == Role.DYNAMITER:
        return [Action(Move.DYNAMITE, card, m) for m in mines]
    return []


def dig_capacity(digger: int, boosts) -> int:
    beers = list(boosts).count(BEER)
    return CARDS[digger].dig * 2 ** beers + 2 * list(boosts).count(PICKAXE)


def dig_bonus(digger: int, boosts) -> int:
    beers = list(boosts).count(BEER)
    return CARDS[digger].bonus * 2 ** beers + 2 * list(boosts).count(NAWAK)


def enemy_value(s: State, enemy: int) -> int:
    """The enemy's combat value in the current dig: Dwouarf at the mine lowers it by 1."""
    dog = DWOUARF in s.warriors[s.to_move][s.dig_mine]
    return CARDS[enemy].combat - (1 if dog else 0)


def _fight_choices(s: State, enemy: int) -> list[Action]:
    """Every choice of own Warriors (by multiset of values) and Digger bonus beating the enemy."""
    need = enemy_value(s, enemy)
    have = Counter(s.warriors[s.to_move][s.dig_mine])
    bonus = dig_bonus(s.digger, s.boosts)
    digger_options = (False, True) if bonus > 0 else (False,)
    choices = []
    for counts in product(*(range(have[k] + 1) for k in FIGHTERS)):
        spent = tuple(k for k, n in zip(FIGHTERS, counts) for _ in range(n))
        total = sum(CARDS[k].combat for k in spent)
        for use in digger_options:
            if (spent or use) and total + (bonus if use else 0) >= need:
                choices.append(Action(Move.FIGHT, cards=spent, use_digger=use))
    return choices


def _diggers_in_hand(s: State, seat: int) -> list[int]:
    return sorted({k for k in s.hands[seat] if CARDS[k].role == Role.DIGGER})


def legal_actions(state: State) -> list[Action]:
    """The decisions open to :func:`current_player`, in the documented order; [] once over."""
    s, p = state, state.to_move
    if s.phase == Phase.TURN:
        actions = []
        if len(s.hands[p]) < HAND_LIMIT:
            actions += [Action(Move.RECRUIT, k) for k in sorted(set(s.center))
                        if not CARDS[k].play_now or _targets(s, p, k)]
        for card in sorted(set(s.hands[p])):
            actions += _plays(s, p, card)
        return actions or [Action(Move.PASS)]
    if s.phase == Phase.PLAY_NOW:
        return _plays(s, p, s.pending)
    if s.phase == Phase.FIGHT:
        return _fight_choices(s, s.pending)
    if s.phase == Phase.GOLDEN_HEART:
        return [Action(Move.HEART, k) for k in _diggers_in_hand(s, p)]
    if s.phase == Phase.BACK_DOOR:
        return [Action(Move.DOOR, mine=m) for m in _open_mines(s)]
    return []


def current_player(state: State) -> int:
    return state.to_move


def is_over(state: State) -> bool:
    return state.phase == Phase.OVER


# --- moving cards --------------------------------------------------------------------------------

def _hidden_count(s: State, seat: int) -> int:
    return len(s.hands[seat]) - len(s.hand_seen[seat])


def _add_to_hand(s: State, seat: int, card: int) -> None:
    """A card joins a hand in view of everyone (recruited, or a Find)."""
    insort(s.hands[seat], card)
    insort(s.hand_seen[seat], card)


def _take_from_hand(s: State, seat: int, card: int) -> None:
    s.hands[seat].remove(card)
    if card in s.hand_seen[seat]:
        s.hand_seen[seat].remove(card)
    if _hidden_count(s, seat) == 0:
        s.hand_never[seat] = 0


def _learn_absent(s: State, seat: int, kinds_mask: int) -> None:
    """Everyone learnt that the unseen part of a hand holds none of these kinds."""
    if _hidden_count(s, seat):
        s.hand_never[seat] |= kinds_mask


def _discard(s: State, card: int) -> None:
    insort(s.dwarf_discard if CARDS[card].deck == Deck.DWARF else s.mine_discard, card)


def _discard_warriors(s: State, seat: int, mine: int) -> None:
    for card in s.warriors[seat][mine]:
        _discard(s, card)
    s.warriors[seat][mine] = []


def _reshuffle(s: State) -> bool:
    if not s.dwarf_discard:
        return False
    s.pile, s.dwarf_discard = s.dwarf_discard, []
    _shuffle(s, s.pile)
    s.shuffles += 1
    return True


def _refill_center(s: State) -> None:
    """Keep 5 cards in the center and a pile whose top is face up, reshuffling when it runs out."""
    while len(s.center) < CENTER_SIZE and (s.pile or _reshuffle(s)):
        insort(s.center, s.pile.pop())
    if not s.pile:
        _reshuffle(s)


def _draw(s: State, mine: int) -> int:
    card = s.mines[mine].pop()
    gone = ~(1 << len(s.mines[mine]))
    for seat in range(s.rules.players):
        s.seen[seat][mine] &= gone
    return card


def _put_back(s: State, mine: int, card: int) -> None:
    """Back on top, face down; everyone saw it."""
    s.mines[mine].append(card)
    for seat in range(s.rules.players):
        s.seen[seat][mine] |= 1 << (len(s.mines[mine]) - 1)


def _claim(holder: int, seat: int, counts: list[int]) -> int:
    """A trophy goes to whoever draws level with or passes its holder ("as many or more")."""
    if holder == NOBODY or counts[seat] >= counts[holder]:
        return seat
    return holder


def _gain_loot(s: State, seat: int, card: int) -> None:
    insort(s.loot[seat], card)
    if s.rules.intro or card not in (DIRT, RAT):
        return
    counts = [loot.count(card) for loot in s.loot]
    if card == DIRT:
        s.employee = _claim(s.employee, seat, counts)
    else:
        s.exterminator = _claim(s.exterminator, seat, counts)


# --- a turn --------------------------------------------------------------------------------------

def apply(state: State, action: Action, check: bool = True) -> State:
    """The state after ``action`` by the current player (``state`` is not changed). Draws and their
    effects run until the next decision. ``check=False`` skips the legality test (for speed)."""
    if check and action not in legal_actions(state):
        raise InputError(f"illegal action {action} in phase {state.phase.name}: legal are "
                         f"{', '.join(map(str, legal_actions(state))) or 'none (game over)'}")
    s = state.copy()
    move = action.move
    if move == Move.PASS:
        _pass(s)
    elif move == Move.RECRUIT:
        _recruit(s, action.card)
    elif move in (Move.WARRIOR, Move.DIGGER, Move.SCOUT, Move.DYNAMITE):
        s.phase, s.pending, s.passes = Phase.TURN, NO_CARD, 0
        _play(s, action)
    elif move == Move.FIGHT:
        _fight(s, action)
    elif move == Move.HEART:
        _carry_heart(s, action.card)
    elif move == Move.DOOR:
        _place_door(s, action.mine)
    return s


def _clear_dig(s: State) -> None:
    if s.digger != NO_CARD:   # the Digger is always discarded at the end of the turn
        for card in [s.digger] + s.boosts:
            _discard(s, card)
    s.digger, s.boosts, s.dig_mine, s.dig_left = NO_CARD, [], NO_MINE, 0


def _game_over(s: State) -> None:
    """The game ends at once: a dig in progress stops (its Digger goes to the discard)."""
    _clear_dig(s)
    s.phase, s.pending = Phase.OVER, NO_CARD


def _end_turn(s: State) -> None:
    _clear_dig(s)
    s.phase, s.pending = Phase.TURN, NO_CARD
    s.to_move = _next(s, s.to_move)
    s.turn += 1
    _refill_center(s)


def _pass(s: State) -> None:
    p = s.to_move
    _learn_absent(s, p, mask_of(k for k in DWARF_KINDS if _targets(s, p, k)))
    s.passes += 1
    if s.passes >= s.rules.players:   # nobody can act: nothing will change any more
        _game_over(s)
    else:
        _end_turn(s)


def _recruit(s: State, card: int) -> None:
    s.passes = 0
    s.center.remove(card)
    _add_to_hand(s, s.to_move, card)
    _refill_center(s)
    if CARDS[card].play_now:
        s.phase, s.pending = Phase.PLAY_NOW, card
    else:
        _end_turn(s)


def _play(s: State, action: Action) -> None:
    p, card, mine = s.to_move, action.card, action.mine
    _take_from_hand(s, p, card)
    if action.move == Move.WARRIOR:
        if CARDS[card].proud:   # proud: he needs nobody
            _discard_warriors(s, p, mine)
        insort(s.warriors[p][mine], card)
    elif action.move == Move.SCOUT:
        top = len(s.mines[mine])
        for pos in range(max(0, top - CARDS[card].explore), top):
            s.seen[p][mine] |= 1 << pos
        _discard(s, card)
    elif action.move == Move.DYNAMITE:
        for seat in range(s.rules.players):
            _discard_warriors(s, seat, mine)
        _discard(s, card)
    else:
        for bonus in action.cards:
            _take_from_hand(s, p, bonus)
        s.digger, s.boosts, s.dig_mine = card, list(action.cards), mine
        s.dig_left = dig_capacity(card, action.cards)
        _dig(s)
        return
    _end_turn(s)


def _dig(s: State) -> None:
    """Draw card by card and resolve each, until a decision is awaited or the turn or game ends."""
    while s.digger != NO_CARD and s.dig_left > 0 and s.mines[s.dig_mine]:
        card = _draw(s, s.dig_mine)
        s.dig_left -= 1
        if not _resolve(s, card):
            return
    _end_turn(s)


def _resolve(s: State, card: int) -> bool:
    """Resolve a drawn card; False when digging does not simply go on (decision, end of turn)."""
    p, role = s.to_move, CARDS[card].role
    if role in (Role.DIRT, Role.TREASURE):
        _gain_loot(s, p, card)
    elif role == Role.ENEMY:
        return _meet(s, card)
    elif CARDS[card].to_hand:
        _find(s, card)
    elif role == Role.GOLDEN_HEART:
        if _diggers_in_hand(s, p):
            s.phase, s.pending = Phase.GOLDEN_HEART, card
        else:
            _put_back(s, s.dig_mine, card)
            _learn_absent(s, p, DIGGER_MASK & DWARF_MASK)
            _end_turn(s)
        return False
    elif role == Role.GHOST:
        _haunt(s)
        _discard(s, card)
    elif role == Role.THRONE_ROOM:
        _gain_loot(s, p, card)
        for held in list(s.hands[p]):   # the room is cursed: the whole hand is discarded
            _take_from_hand(s, p, held)
            _discard(s, held)
    elif role == Role.BACK_DOOR:
        if _card_done(s):
            s.phase, s.pending = Phase.BACK_DOOR, card
        else:
            s.door_owner = p     # the game is over; the door still counts for its finder
        return False
    return _card_done(s)


def _card_done(s: State) -> bool:
    """After a card: an emptied mine loses its Warriors; two empty mines end the game at once."""
    if not s.mines[s.dig_mine]:
        for seat in range(s.rules.players):
            _discard_warriors(s, seat, s.dig_mine)
    if sum(1 for m in s.mines if not m) >= 2:
        _game_over(s)
        return False
    return True


def _meet(s: State, enemy: int) -> bool:
    p = s.to_move
    if enemy_value(s, enemy) <= 0:        # Dwouarf eliminates a Rat directly
        _gain_loot(s, p, enemy)
        return _card_done(s)
    if _fight_choices(s, enemy):          # a fight that can be won must be won
        s.phase, s.pending = Phase.FIGHT, enemy
        return False
    _discard_warriors(s, p, s.dig_mine)   # defeat: Warriors and Digger discarded (Digger below)
    _put_back(s, s.dig_mine, enemy)
    _end_turn(s)
    return False


def _fight(s: State, action: Action) -> None:
    p, mine, enemy = s.to_move, s.dig_mine, s.pending
    s.phase, s.pending = Phase.TURN, NO_CARD
    for card in action.cards:
        s.warriors[p][mine].remove(card)
        _discard(s, card)
    if action.use_digger:
        for card in [s.digger] + s.boosts:
            _discard(s, card)
        s.digger, s.boosts = NO_CARD, []
    _gain_loot(s, p, enemy)
    if _card_done(s):
        _dig(s)


def _carry_heart(s: State, digger: int) -> None:
    p, heart = s.to_move, s.pending
    s.phase, s.pending = Phase.TURN, NO_CARD
    _take_from_hand(s, p, digger)
    _discard(s, digger)
    _gain_loot(s, p, heart)
    if _card_done(s):
        _dig(s)


def _place_door(s: State, mine: int) -> None:
    s.phase, s.pending = Phase.TURN, NO_CARD
    s.door_owner, s.door_mine, s.dig_mine = s.to_move, mine, mine
    _dig(s)


def _find(s: State, card: int) -> None:
    """A Find joins the finder's hand, else the next hand in turn order with room, else the
    discard."""
    seat = s.to_move
    for _ in range(s.rules.players):
        if len(s.hands[seat]) < HAND_LIMIT:
            _add_to_hand(s, seat, card)
            return
        seat = _next(s, seat)
    _discard(s, card)


def _haunt(s: State) -> None:
    """The Ghost: a random Dwarf card of the finder's hand is discarded, else of the next hand."""
    seat = s.to_move
    for _ in range(s.rules.players):
        dwarves = [k for k in s.hands[seat] if CARDS[k].deck == Deck.DWARF]
        if dwarves:
            card = dwarves[_chance_below(s, len(dwarves))]
            _take_from_hand(s, seat, card)
            _discard(s, card)
            return
        seat = _next(s, seat)


# --- the end -------------------------------------------------------------------------------------

def scores(state: State) -> tuple[int, ...]:
    """Victory points per seat: loot, Rings in hand, the Back Door, the trophies."""
    s = state
    points = []
    for seat in range(s.rules.players):
        vp = sum(CARDS[k].vp for k in s.loot[seat])
        vp += sum(CARDS[k].vp for k in s.hands[seat] if k == RING)
        vp += CARDS[BACK_DOOR].vp if s.door_owner == seat else 0
        vp += EMPLOYEE_VP if s.employee == seat else 0
        vp += EXTERMINATOR_VP if s.exterminator == seat else 0
        points.append(vp)
    return tuple(points)


def winners(state: State) -> tuple[int, ...]:
    """Most points; equal points: more Treasure cards; still equal: all of them."""
    points = scores(state)
    best = [seat for seat, vp in enumerate(points) if vp == max(points)]
    treasures = {seat: state.loot[seat].count(TREASURE) for seat in best}
    return tuple(seat for seat in best if treasures[seat] == max(treasures.values()))


def result(state: State) -> tuple[float, ...]:
    """Per seat: 1/k for each of the k winners, 0 for the others."""
    won = winners(state)
    return tuple(1 / len(won) if seat in won else 0.0 for seat in range(state.rules.players))


def census(state: State) -> Counter:
    """Every card of the game, wherever it is (for conservation checks)."""
    s = state
    found = Counter(s.box + s.pile + s.center + s.dwarf_discard + s.mine_discard + s.boosts)
    for m in s.mines:
        found.update(m)
    for seat in range(s.rules.players):
        found.update(s.hands[seat])
        found.update(s.loot[seat])
        for w in s.warriors[seat]:
            found.update(w)
    for card in (s.digger, s.door_owner != NOBODY and BACK_DOOR or NO_CARD):
        if card != NO_CARD:
            found[card] += 1
    if s.phase in (Phase.FIGHT, Phase.GOLDEN_HEART, Phase.BACK_DOOR):
        found[s.pending] += 1
    return found


def all_cards(rules: Rules) -> Counter:
    found = Counter()
    for deck in Deck:
        found.update(game_cards(deck, rules.intro))
    return found


def _drawn_from(phase: Phase, dig_mine: int, mine: int) -> bool:
    """A card drawn from ``mine`` awaits a decision: the mine counts as emptied only after it."""
    return mine == dig_mine and phase in (Phase.FIGHT, Phase.GOLDEN_HEART)


def check_state(state: State) -> None:
    """Raise AssertionError if a state breaks an invariant of the rules (tests call this)."""
    s = state
    assert +census(s) == +all_cards(s.rules), "cards were created or lost"
    for seat in range(s.rules.players):
        assert len(s.hands[seat]) <= HAND_LIMIT, f"seat {seat} holds {len(s.hands[seat])} cards"
        assert not Counter(s.hand_seen[seat]) - Counter(s.hands[seat]), "seen cards not in hand"
        hidden = Counter(s.hands[seat]) - Counter(s.hand_seen[seat])
        assert not any(s.hand_never[seat] >> k & 1 for k in hidden), "hand holds a 'never' kind"
        for m in range(MINES):
            w = s.warriors[seat][m]
            assert not w or s.mines[m] or _drawn_from(s.phase, s.dig_mine, m), \
                "Warriors in front of an empty mine"
            assert not any(CARDS[k].proud for k in w) or len(w) == 1, "a proud Warrior has company"
            assert s.seen[seat][m] >> len(s.mines[m]) == 0, "knowledge of a card no longer there"
    assert len(s.center) <= CENTER_SIZE
    empty = [m for m in range(MINES) if not s.mines[m] and not _drawn_from(s.phase, s.dig_mine, m)]
    assert s.phase == Phase.OVER or len(empty) < 2, "two empty mines and the game goes on"
    assert s.phase != Phase.TURN or s.digger == NO_CARD, "a Digger left over"
    assert all(s.mines[m][0] in END_KINDS for m in range(MINES) if s.mines[m] and not s.rules.intro)


# --- information sets ----------------------------------------------------------------------------

@dataclass(frozen=True)
class InfoSet:
    """What seat ``seat`` knows; all of it is public but ``own_hand`` and ``mine_known``.

    Hands: ``hand_seen[s]`` is what everyone knows seat s holds; he holds ``hidden[s]`` more cards,
    all of the Dwarf deck and of no kind in ``hand_never[s]``; ``own_hand`` is the viewer's whole
    hand. Mines: sizes and, per position counted from the bottom, the cards the viewer knows;
    ``seen[s][m]`` says which positions seat s knows (public: everyone saw the Scouts played). The
    Dwarf pile below its top is unknown until the first reshuffle; after one, its contents (not its
    order) are public: ``pile_below`` (sorted), else None."""

    rules: Rules
    seat: int
    to_move: int
    phase: Phase
    turn: int
    passes: int
    pending: int
    own_hand: tuple[int, ...]
    hand_seen: tuple[tuple[int, ...], ...]
    hidden: tuple[int, ...]
    hand_never: tuple[int, ...]
    center: tuple[int, ...]
    pile_size: int
    pile_top: int
    shuffles: int
    pile_below: tuple[int, ...] | None
    dwarf_discard: tuple[int, ...]
    mine_discard: tuple[int, ...]
    box_size: int
    mine_sizes: tuple[int, ...]
    mine_known: tuple[tuple[tuple[int, int], ...], ...]   # per mine: (position, card) he knows
    seen: tuple[tuple[int, ...], ...]                     # [seat][mine] position masks
    warriors: tuple[tuple[tuple[int, ...], ...], ...]
    loot: tuple[tuple[int, ...], ...]
    door_owner: int
    door_mine: int
    employee: int
    exterminator: int
    dig_mine: int
    digger: int
    boosts: tuple[int, ...]
    dig_left: int


def information_set(state: State, seat: int) -> InfoSet:
    s, n = state, state.rules.players
    if not 0 <= seat < n:
        raise InputError(f"seat {seat} is not in a {n}-player game")
    known = tuple(tuple((pos, card) for pos, card in enumerate(s.mines[m])
                        if s.seen[seat][m] >> pos & 1) for m in range(MINES))
    return InfoSet(
        rules=s.rules, seat=seat, to_move=s.to_move, phase=s.phase, turn=s.turn, passes=s.passes,
        pending=s.pending, own_hand=tuple(s.hands[seat]), hand_seen=tuple(map(tuple, s.hand_seen)),
        hidden=tuple(_hidden_count(s, o) for o in range(n)), hand_never=tuple(s.hand_never),
        center=tuple(s.center), pile_size=len(s.pile), pile_top=s.pile[-1] if s.pile else NO_CARD,
        shuffles=s.shuffles, pile_below=tuple(sorted(s.pile[:-1])) if s.shuffles else None,
        dwarf_discard=tuple(s.dwarf_discard), mine_discard=tuple(s.mine_discard),
        box_size=len(s.box), mine_sizes=tuple(len(m) for m in s.mines), mine_known=known,
        seen=tuple(map(tuple, s.seen)), warriors=tuple(tuple(map(tuple, w)) for w in s.warriors),
        loot=tuple(map(tuple, s.loot)), door_owner=s.door_owner, door_mine=s.door_mine,
        employee=s.employee, exterminator=s.exterminator, dig_mine=s.dig_mine, digger=s.digger,
        boosts=tuple(s.boosts), dig_left=s.dig_left)


def _located(info: InfoSet) -> Counter:
    """Cards whose place the viewer knows."""
    i = info
    found = Counter(i.own_hand + i.center + i.dwarf_discard + i.mine_discard + i.boosts +
                    (i.pile_below or ()))
    for o in range(i.rules.players):
        if o != i.seat:
            found.update(i.hand_seen[o])
        found.update(i.loot[o])
        for cards in i.warriors[o]:
            found.update(cards)
    for per_mine in i.mine_known:
        found.update(card for _, card in per_mine)
    extra = [i.pile_top, i.digger, BACK_DOOR if i.door_owner != NOBODY else NO_CARD]
    if i.phase in (Phase.FIGHT, Phase.GOLDEN_HEART, Phase.BACK_DOOR):
        extra.append(i.pending)
    found.update(c for c in extra if c != NO_CARD)
    return found


def unseen_pools(info: InfoSet) -> dict[Deck, list[int]]:
    """Per deck, the cards whose place the viewer does not know (sorted)."""
    left = all_cards(info.rules)
    left.subtract(_located(info))
    too_many = [name(k) for k in sorted(left) if left[k] < 0]
    _expect(not too_many, "cards", f"more {', '.join(too_many)} placed than the game holds")
    return {deck: [k for k in sorted(left) if CARDS[k].deck == deck for _ in range(left[k])]
            for deck in Deck}


def deal_constrained(pool: list[int], groups: list[tuple[int, int]], rng: random.Random
                     ) -> list[list[int]]:
    """Deal the cards of ``pool`` into groups of places: group g takes ``groups[g][0]`` cards, of
    kinds in the bit mask ``groups[g][1]`` only. Uniform over all such deals of the physical cards;
    each group's list is in uniformly random order. Sizes must add up to ``len(pool)``."""
    pool_mask = mask_of(pool)
    if all(size == 0 or pool_mask & ~allowed == 0 for size, allowed in groups):
        cards = list(pool)
        rng.shuffle(cards)
        dealt, at = [], 0
        for size, _ in groups:
            dealt.append(cards[at:at + size])
            at += size
        return dealt
    return _deal_by_counts(pool, groups, rng)


def _deal_by_counts(pool: list[int], groups: list[tuple[int, int]], rng: random.Random
                    ) -> list[list[int]]:
    """Exact constrained deal. A deal putting n[g][k] cards of kind k in group g stands for
    prod_k(c_k!/prod_g n[g][k]!) * prod_g(size_g!) physical deals, so the count table is drawn with
    weight prod 1/n[g][k]!, kind by kind, from a table of suffix weights; then each group is
    shuffled."""
    counts = Counter(pool)
    kinds = sorted(counts)
    live = [g for g, (size, _) in enumerate(groups) if size > 0]
    allowed = [[groups[g][1] >> k & 1 for g in live] for k in kinds]
    last = len(live) - 1
    suffix = [sum(counts[k] for k in kinds[i:]) for i in range(len(kinds) + 1)]
    memo: dict[tuple, float] = {}

    def splits(i: int, rem: tuple[int, ...]):
        """Ways to share the copies of kind i: (weight, new remaining sizes), last group implied."""
        out = []

        def rec(g: int, left: int, parts: tuple[int, ...], weight: float):
            if g == last:
                room = suffix[i] - sum(rem)
                if left <= room and (left == 0 or allowed[i][g]):
                    out.append((weight / math.factorial(left),
                                tuple(r - p for r, p in zip(rem, parts)), parts + (left,)))
                return
            top = min(left, rem[g]) if allowed[i][g] else 0
            for take in range(top + 1):
                rec(g + 1, left - take, parts + (take,), weight / math.factorial(take))
        rec(0, counts[kinds[i]], (), 1.0)
        return out

    def total(i: int, rem: tuple[int, ...]) -> float:
        if i == len(kinds):
            return 1.0
        key = (i, rem)
        if key not in memo:
            memo[key] = sum(w * total(i + 1, after) for w, after, _ in splits(i, rem))
        return memo[key]

    rem = tuple(groups[g][0] for g in live[:-1])
    _expect(total(0, rem) > 0, "never", "no deal of the unseen cards fits what is known of hands")
    dealt = [[] for _ in groups]
    for i, kind in enumerate(kinds):
        options = splits(i, rem)
        weights = [w * total(i + 1, after) for w, after, _ in options]
        _, rem, parts = rng.choices(options, weights)[0]
        for g, take in zip(live, parts):
            dealt[g] += [kind] * take
    for cards in dealt:
        rng.shuffle(cards)
    return dealt


def sample_state(info: InfoSet, rng: random.Random) -> State:
    """A full state drawn uniformly among those consistent with ``info`` (see decision 22), with a
    fresh chance generator."""
    i, n = info, info.rules.players
    check_info(i)
    pools = unseen_pools(i)
    below_unknown = i.pile_below is None and i.pile_size > 0
    groups = [(0 if o == i.seat else i.hidden[o], ALL_KINDS_MASK & ~i.hand_never[o])
              for o in range(n)]
    groups.append((i.pile_size - 1 if below_unknown else 0, ALL_KINDS_MASK))
    dealt = deal_constrained(pools[Deck.DWARF], groups, rng)
    hands = [list(i.own_hand) if o == i.seat else sorted(i.hand_seen[o] + tuple(dealt[o]))
             for o in range(n)]
    if i.pile_size == 0:
        pile = []
    else:
        pile = dealt[n] if below_unknown else list(i.pile_below)
        if not below_unknown:
            rng.shuffle(pile)
        pile.append(i.pile_top)
    mines, box = _sample_mines(i, pools, rng)
    return State(
        i.rules, mines, box, pile, i.shuffles, list(i.center), list(i.dwarf_discard),
        list(i.mine_discard), hands, [list(h) for h in i.hand_seen], list(i.hand_never),
        [[list(w) for w in per] for per in i.warriors], [list(x) for x in i.loot],
        [list(row) for row in i.seen], i.door_owner, i.door_mine, i.employee, i.exterminator,
        i.to_move, i.phase, i.pending, i.dig_mine, i.digger, list(i.boosts), i.dig_left, i.passes,
        i.turn, rng.getrandbits(64))


def _sample_mines(info: InfoSet, pools: dict[Deck, list[int]], rng: random.Random
                  ) -> tuple[list[list[int]], list[int]]:
    """Unknown mine places get a uniform arrangement of the unseen Mine cards (End of Mine cards
    under the piles in the full game); what is left over is the box."""
    mines = [[NO_CARD] * size for size in info.mine_sizes]
    for m, per_mine in enumerate(info.mine_known):
        for pos, card in per_mine:
            mines[m][pos] = card
    ends, cards = list(pools[Deck.END]), list(pools[Deck.MINE])
    rng.shuffle(ends)
    rng.shuffle(cards)
    for m, pile in enumerate(mines):
        for pos, card in enumerate(pile):
            if card == NO_CARD:
                from_ends = pos == 0 and not info.rules.intro
                source = ends if from_ends else cards
                _expect(bool(source), f"mines[{m}]", "more unknown places than unseen cards")
                pile[pos] = source.pop()
    box = sorted(ends + cards)
    _expect(len(box) == info.box_size, "box",
            f"{info.box_size} cards set aside, but {len(box)} Mine cards are unplaced")
    return mines, box


# --- checking what a position claims -------------------------------------------------------------

def _expect(ok: bool, field_name: str, why: str) -> None:
    if not ok:
        raise InputError(f"tunhell position: {field_name}: {why}")


def _deck_is(cards, deck: Deck, field_name: str) -> None:
    for j, card in enumerate(cards):
        _expect(CARDS[card].deck == deck, f"{field_name}[{j}]",
                f"{name(card)} is not a {deck.name.title()} card")


def max_mine_size(rules: Rules) -> int:
    dealt = sum(game_cards(Deck.MINE, rules.intro).values()) - SET_ASIDE[rules.intro]
    return dealt // MINES + (0 if rules.intro else 1)


def check_info(info: InfoSet) -> None:
    """Raise InputError, naming the JSON field, if ``info`` is not a position the game can hold."""
    i, n = info, info.rules.players
    seats = range(n)
    _expect(i.seat in seats, "seat", f"must be 0..{n - 1}")
    _expect(i.to_move in seats, "to_move", f"must be 0..{n - 1}")
    for card in _located(i):
        _expect(i.rules.intro is False or not CARDS[card].full_only, "cards",
                f"{name(card)} is not used in the introductory game")
    for o in seats:
        where = f"seats[{o}]"
        _expect(len(i.hand_seen[o]) + i.hidden[o] <= HAND_LIMIT, f"{where}.hidden",
                f"a hand holds at most {HAND_LIMIT} cards")
        _expect(i.hidden[o] >= 0, f"{where}.hidden", "must not be negative")
        _expect(i.hand_never[o] & ~ALL_KINDS_MASK == 0, f"{where}.never", "unknown kinds")
        for m in range(MINES):
            w = i.warriors[o][m]
            for j, card in enumerate(w):
                _expect(CARDS[card].role == Role.WARRIOR, f"{where}.warriors[{m}][{j}]",
                        f"{name(card)} is not a Warrior")
            _expect(not w or i.mine_sizes[m] > 0 or _drawn_from(i.phase, i.dig_mine, m),
                    f"{where}.warriors[{m}]", "the mine is empty")
            _expect(len(w) <= 1 or not any(CARDS[k].proud for k in w), f"{where}.warriors[{m}]",
                    "a proud Warrior stands alone")
        for j, card in enumerate(i.loot[o]):
            _expect(CARDS[card].role in (Role.DIRT, Role.TREASURE, Role.ENEMY, Role.GOLDEN_HEART,
                                         Role.THRONE_ROOM), f"{where}.loot[{j}]",
                    f"{name(card)} never goes to a loot")
    own_unseen = Counter(i.own_hand)
    own_unseen.subtract(i.hand_seen[i.seat])
    _expect(min(own_unseen.values(), default=0) >= 0, f"seats[{i.seat}].known",
            "the viewer's known cards must be in his hand")
    _expect(len(i.own_hand) == len(i.hand_seen[i.seat]) + i.hidden[i.seat], "hand",
            f"must hold seats[{i.seat}].known plus seats[{i.seat}].hidden cards")
    _expect(all(CARDS[k].deck == Deck.DWARF for k in +own_unseen), "hand",
            "cards nobody saw joining a hand are dealt Dwarf cards")
    _expect(len(i.center) <= CENTER_SIZE, "center", f"at most {CENTER_SIZE} cards")
    _deck_is(i.center, Deck.DWARF, "center")
    _deck_is(i.dwarf_discard, Deck.DWARF, "dwarf_discard")
    _expect(all(CARDS[k].deck != Deck.DWARF for k in i.mine_discard), "mine_discard",
            "holds Mine cards only")
    _expect(i.pile_size >= 0, "dwarf_pile.size", "must not be negative")
    _expect((i.pile_top == NO_CARD) == (i.pile_size == 0), "dwarf_pile.top",
            "a pile with cards shows its top, an empty one nothing")
    _deck_is([c for c in (i.pile_top,) if c != NO_CARD], Deck.DWARF, "dwarf_pile.top")
    _expect(i.shuffles >= 0, "dwarf_pile.shuffles", "must not be negative")
    _expect((i.pile_below is None) == (i.shuffles == 0), "dwarf_pile.below_top",
            "is known (a list) exactly when the pile was reshuffled")
    if i.pile_below is not None:
        _expect(len(i.pile_below) == max(i.pile_size - 1, 0), "dwarf_pile.below_top",
                "must hold size - 1 cards")
        _deck_is(i.pile_below, Deck.DWARF, "dwarf_pile.below_top")
    _check_mines(i)
    _check_turn(i)
    pools = unseen_pools(i)
    places = sum(i.hidden[o] for o in seats if o != i.seat)
    places += i.pile_size - 1 if i.pile_below is None and i.pile_size else 0
    _expect(places == len(pools[Deck.DWARF]), "seats[].hidden",
            f"{places} unknown Dwarf places (hidden hand cards, pile below its top) but "
            f"{len(pools[Deck.DWARF])} Dwarf cards are unplaced")
    unknown = sum(size - len(known) for size, known in zip(i.mine_sizes, i.mine_known))
    _expect(unknown + i.box_size == len(pools[Deck.MINE]) + len(pools[Deck.END]), "box",
            f"{unknown} unknown mine places plus {i.box_size} set aside, but "
            f"{len(pools[Deck.MINE]) + len(pools[Deck.END])} Mine cards are unplaced")


def _check_mines(i: InfoSet) -> None:
    biggest = max_mine_size(i.rules)
    for m in range(MINES):
        where = f"mines[{m}]"
        size = i.mine_sizes[m]
        _expect(0 <= size <= biggest, f"{where}.size", f"must be 0..{biggest}")
        positions = [pos for pos, _ in i.mine_known[m]]
        for pos, card in i.mine_known[m]:
            _expect(0 <= pos < size, f"{where}.cards", "a known card outside the pile")
            bottom = pos == 0 and not i.rules.intro
            _expect(CARDS[card].deck == (Deck.END if bottom else Deck.MINE), f"{where}.cards",
                    f"{name(card)} cannot lie {'at the bottom' if bottom else 'there'}")
        _expect(len(set(positions)) == len(positions), f"{where}.cards", "a position twice")
        for o in range(i.rules.players):
            _expect(i.seen[o][m] >> size == 0, f"{where}.known_to[{o}]",
                    "a position outside the pile")
        _expect(i.seen[i.seat][m] == mask_of(positions), f"{where}.known_to[{i.seat}]",
                "must list exactly the viewer's known cards")
    empty = [m for m in range(MINES)
             if i.mine_sizes[m] == 0 and not _drawn_from(i.phase, i.dig_mine, m)]
    _expect(len(empty) < 2 or i.phase == Phase.OVER, "phase",
            "two mines are empty: the game is over")
    _expect(i.box_size >= 0, "box", "must not be negative")


_PENDING_ROLE = {Phase.FIGHT: Role.ENEMY, Phase.GOLDEN_HEART: Role.GOLDEN_HEART,
                 Phase.BACK_DOOR: Role.BACK_DOOR}


def _check_turn(i: InfoSet) -> None:
    n = i.rules.players
    digging = i.phase in _PENDING_ROLE
    _expect(i.turn >= 0 and i.passes >= 0, "turn", "turn and passes must not be negative")
    _expect(digging or i.digger == NO_CARD, "dig",
            f"no dig is in progress in phase {i.phase.name.lower()}")
    if i.digger != NO_CARD or digging:
        _expect(i.digger != NO_CARD and CARDS[i.digger].role == Role.DIGGER, "dig.digger",
                "a dig needs a Digger")
        _expect(i.dig_mine in range(MINES), "dig.mine", "must be 0..2")
        _expect(all(CARDS[k].role == Role.BONUS for k in i.boosts), "dig.bonuses",
                "Bonuses only")
        _expect(i.dig_left >= 0, "dig.left", "must not be negative")
    else:
        _expect(not i.boosts and i.dig_left == 0 and i.dig_mine == NO_MINE, "dig",
                "no dig without a Digger")
    if i.phase in _PENDING_ROLE:
        _expect(i.pending != NO_CARD and CARDS[i.pending].role == _PENDING_ROLE[i.phase],
                "pending", f"phase {i.phase.name.lower()} resolves a "
                f"{_PENDING_ROLE[i.phase].name.lower().replace('_', ' ')}")
    elif i.phase == Phase.PLAY_NOW:
        _expect(i.pending != NO_CARD and CARDS[i.pending].play_now and
                i.pending in i.hand_seen[i.to_move], "pending",
                "the play-now card just recruited, in its player's hand")
    else:
        _expect(i.pending == NO_CARD, "pending",
                f"nothing is pending in phase {i.phase.name.lower()}")
    _expect(i.door_owner in range(-1, n), "door.owner", f"must be 0..{n - 1}")
    _expect(i.door_mine in range(-1, MINES) and (i.door_owner != NOBODY or i.door_mine == NO_MINE),
            "door.mine", "must be 0..2, only with an owner")
    for trophy, holder in (("employee_of_the_month", i.employee), ("exterminator", i.exterminator)):
        _expect(holder in range(-1, n), f"trophies.{trophy}", f"must be 0..{n - 1} or null")
        _expect(holder == NOBODY or not i.rules.intro, f"trophies.{trophy}",
                "no trophies in the introductory game")


# --- positions as JSON ---------------------------------------------------------------------------

_PHASE_NAMES = {Phase.TURN: "turn", Phase.PLAY_NOW: "play-now", Phase.FIGHT: "fight",
                Phase.GOLDEN_HEART: "golden-heart", Phase.BACK_DOOR: "back-door",
                Phase.OVER: "over"}
_PHASES = {text: phase for phase, text in _PHASE_NAMES.items()}


def _names(cards) -> list[str]:
    return [name(c) for c in cards]


def _or_null(value: int, none: int = NO_CARD, as_name: bool = False):
    if value == none:
        return None
    return name(value) if as_name else value


def _positions_from_top(mask: int, size: int) -> list[int]:
    return [size - 1 - pos for pos in range(size - 1, -1, -1) if mask >> pos & 1]


def to_json(info: InfoSet) -> str:
    """One player's view as JSON. Schema (every field required; cards are names from the card
    table, e.g. "warrior-2", "digger-2/+1", "dragon"; lists of cards are multisets, any order)::

        {"game": "tunhell", "rules_version": 1,
         "rules": {"players": 2..4, "intro": bool},
         "seat": viewer, "to_move": seat, "turn": turns played, "passes": passes in a row,
         "phase": "turn" | "play-now" | "fight" | "golden-heart" | "back-door" | "over",
         "pending": card | null,       play-now: the card recruited; fight: the enemy;
                                       golden-heart / back-door: that card; else null
         "hand": [cards],              the viewer's whole hand
         "seats": [{"known": [cards],  what everyone knows this seat holds (recruits, Finds)
                    "hidden": int,     how many more cards he holds (dealt Dwarf cards)
                    "never": [cards],  kinds those hidden cards are known not to be
                    "warriors": [[cards] x 3],  in front of mines 0, 1, 2
                    "loot": [cards]} x players],
         "center": [cards],            the recruitment center
         "dwarf_pile": {"size": int, "top": card | null, "shuffles": int,
                        "below_top": [cards] | null},   known contents once reshuffled, else null
         "dwarf_discard": [cards], "mine_discard": [cards],
         "box": int,                   cards set aside at setup (never seen)
         "mines": [{"size": int,
                    "cards": [card | null] x size,      top first: what the viewer knows
                    "known_to": [[positions from the top] x players]} x 3],
         "door": null | {"owner": seat, "mine": 0..2 | null},
         "trophies": {"employee_of_the_month": seat | null, "exterminator": seat | null},
         "dig": null | {"mine": 0..2, "digger": card, "bonuses": [cards], "left": draws left}}
    """
    i = info
    mines = []
    for m in range(MINES):
        size = i.mine_sizes[m]
        cards: list = [None] * size
        for pos, card in i.mine_known[m]:
            cards[size - 1 - pos] = name(card)
        mines.append({"size": size, "cards": cards,
                      "known_to": [_positions_from_top(i.seen[o][m], size)
                                   for o in range(i.rules.players)]})
    seats = [{"known": _names(i.hand_seen[o]), "hidden": i.hidden[o],
              "never": _names(kinds_in(i.hand_never[o])),
              "warriors": [_names(w) for w in i.warriors[o]], "loot": _names(i.loot[o])}
             for o in range(i.rules.players)]
    doc = {
        "game": INFO.name, "rules_version": INFO.rules_version,
        "rules": {"players": i.rules.players, "intro": i.rules.intro},
        "seat": i.seat, "to_move": i.to_move, "turn": i.turn, "passes": i.passes,
        "phase": _PHASE_NAMES[i.phase], "pending": _or_null(i.pending, as_name=True),
        "hand": _names(i.own_hand), "seats": seats, "center": _names(i.center),
        "dwarf_pile": {"size": i.pile_size, "top": _or_null(i.pile_top, as_name=True),
                       "shuffles": i.shuffles,
                       "below_top": None if i.pile_below is None else _names(i.pile_below)},
        "dwarf_discard": _names(i.dwarf_discard), "mine_discard": _names(i.mine_discard),
        "box": i.box_size, "mines": mines,
        "door": None if i.door_owner == NOBODY else
        {"owner": i.door_owner, "mine": _or_null(i.door_mine, NO_MINE)},
        "trophies": {"employee_of_the_month": _or_null(i.employee, NOBODY),
                     "exterminator": _or_null(i.exterminator, NOBODY)},
        "dig": None if i.digger == NO_CARD else
        {"mine": i.dig_mine, "digger": name(i.digger), "bonuses": _names(i.boosts),
         "left": i.dig_left},
    }
    return json.dumps(doc)


def from_json(text: str) -> InfoSet:
    """Read a view written by :func:`to_json`; a bad one raises InputError naming the field."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"tunhell position is not valid JSON: {err}") from None
    r = _Reader()
    r.fields(doc, "position", ("game", "rules_version", "rules", "seat", "to_move", "turn",
                               "passes", "phase", "pending", "hand", "seats", "center",
                               "dwarf_pile", "dwarf_discard", "mine_discard", "box", "mines",
                               "door", "trophies", "dig"))
    _expect(doc["game"] == INFO.name, "game", f"must be {INFO.name!r}, got {doc['game']!r}")
    _expect(doc["rules_version"] == INFO.rules_version, "rules_version",
            f"must be {INFO.rules_version}, got {doc['rules_version']!r}")
    r.fields(doc["rules"], "rules", ("players", "intro"))
    rules = Rules(r.int(doc["rules"]["players"], "rules.players", 2, 4),
                  r.bool(doc["rules"]["intro"], "rules.intro"))
    n = rules.players
    _expect(doc["phase"] in _PHASES, "phase", f"must be one of {', '.join(_PHASES)}")
    seats = r.list(doc["seats"], "seats", n)
    for o, seat in enumerate(seats):
        r.fields(seat, f"seats[{o}]", ("known", "hidden", "never", "warriors", "loot"))
    mines = r.list(doc["mines"], "mines", MINES)
    mine_sizes, mine_known, seen = [], [], [[0] * MINES for _ in range(n)]
    for m, mine in enumerate(mines):
        where = f"mines[{m}]"
        r.fields(mine, where, ("size", "cards", "known_to"))
        size = r.int(mine["size"], f"{where}.size", 0, 99)
        cards = r.list(mine["cards"], f"{where}.cards", size)
        mine_sizes.append(size)
        mine_known.append(tuple(sorted((size - 1 - top, r.card(c, f"{where}.cards[{top}]"))
                                       for top, c in enumerate(cards) if c is not None)))
        for o, tops in enumerate(r.list(mine["known_to"], f"{where}.known_to", n)):
            for j, top in enumerate(r.list(tops, f"{where}.known_to[{o}]")):
                seen[o][m] |= 1 << (size - 1 - r.int(top, f"{where}.known_to[{o}][{j}]", 0,
                                                     size - 1))
    pile = doc["dwarf_pile"]
    r.fields(pile, "dwarf_pile", ("size", "top", "shuffles", "below_top"))
    door, dig, trophies = doc["door"], doc["dig"], doc["trophies"]
    if door is not None:
        r.fields(door, "door", ("owner", "mine"))
    if dig is not None:
        r.fields(dig, "dig", ("mine", "digger", "bonuses", "left"))
    r.fields(trophies, "trophies", ("employee_of_the_month", "exterminator"))
    info = InfoSet(
        rules=rules, seat=r.int(doc["seat"], "seat", 0, n - 1),
        to_move=r.int(doc["to_move"], "to_move", 0, n - 1), phase=_PHASES[doc["phase"]],
        turn=r.int(doc["turn"], "turn", 0), passes=r.int(doc["passes"], "passes", 0, n),
        pending=r.card_or_none(doc["pending"], "pending"), own_hand=r.cards(doc["hand"], "hand"),
        hand_seen=tuple(r.cards(s["known"], f"seats[{o}].known") for o, s in enumerate(seats)),
        hidden=tuple(r.int(s["hidden"], f"seats[{o}].hidden", 0, HAND_LIMIT)
                     for o, s in enumerate(seats)),
        hand_never=tuple(mask_of(r.cards(s["never"], f"seats[{o}].never"))
                         for o, s in enumerate(seats)),
        center=r.cards(doc["center"], "center"),
        pile_size=r.int(pile["size"], "dwarf_pile.size", 0, 44),
        pile_top=r.card_or_none(pile["top"], "dwarf_pile.top"),
        shuffles=r.int(pile["shuffles"], "dwarf_pile.shuffles", 0),
        pile_below=None if pile["below_top"] is None else
        r.cards(pile["below_top"], "dwarf_pile.below_top"),
        dwarf_discard=r.cards(doc["dwarf_discard"], "dwarf_discard"),
        mine_discard=r.cards(doc["mine_discard"], "mine_discard"),
        box_size=r.int(doc["box"], "box", 0, 99), mine_sizes=tuple(mine_sizes),
        mine_known=tuple(mine_known), seen=tuple(map(tuple, seen)),
        warriors=tuple(tuple(r.cards(w, f"seats[{o}].warriors[{m}]")
                             for m, w in enumerate(r.list(s["warriors"], f"seats[{o}].warriors",
                                                          MINES)))
                       for o, s in enumerate(seats)),
        loot=tuple(r.cards(s["loot"], f"seats[{o}].loot") for o, s in enumerate(seats)),
        door_owner=NOBODY if door is None else r.int(door["owner"], "door.owner", 0, n - 1),
        door_mine=NO_MINE if door is None or door["mine"] is None else
        r.int(door["mine"], "door.mine", 0, MINES - 1),
        employee=r.seat_or_none(trophies["employee_of_the_month"],
                                "trophies.employee_of_the_month", n),
        exterminator=r.seat_or_none(trophies["exterminator"], "trophies.exterminator", n),
        dig_mine=NO_MINE if dig is None else r.int(dig["mine"], "dig.mine", 0, MINES - 1),
        digger=NO_CARD if dig is None else r.card(dig["digger"], "dig.digger"),
        boosts=() if dig is None else r.cards(dig["bonuses"], "dig.bonuses"),
        dig_left=0 if dig is None else r.int(dig["left"], "dig.left", 0, 99))
    check_info(info)
    return info


class _Reader:
    """Typed reads of JSON values; every failure names the field."""

    def fields(self, obj, where: str, names: tuple[str, ...]) -> None:
        _expect(isinstance(obj, dict), where, "must be a JSON object")
        missing = [f for f in names if f not in obj]
        extra = [f for f in obj if f not in names]
        _expect(not missing, where, f"missing field(s) {', '.join(missing)}")
        _expect(not extra, where, f"unknown field(s) {', '.join(extra)}")

    def int(self, value, where: str, low: int, high: int | None = None) -> int:
        _expect(isinstance(value, int) and not isinstance(value, bool), where,
                f"must be a whole number, got {value!r}")
        _expect(value >= low and (high is None or value <= high), where,
                f"must be {low}..{'' if high is None else high}, got {value}")
        return value

    def bool(self, value, where: str) -> bool:
        _expect(isinstance(value, bool), where, f"must be true or false, got {value!r}")
        return value

    def list(self, value, where: str, length: int | None = None) -> list:
        _expect(isinstance(value, list), where, "must be a list")
        _expect(length is None or len(value) == length, where,
                f"must have {length} entries, has {len(value)}")
        return value

    def card(self, value, where: str) -> int:
        _expect(isinstance(value, str) and value in BY_NAME, where, f"unknown card {value!r}")
        return BY_NAME[value]

    def card_or_none(self, value, where: str) -> int:
        return NO_CARD if value is None else self.card(value, where)

    def cards(self, value, where: str) -> tuple[int, ...]:
        return tuple(sorted(self.card(c, f"{where}[{j}]")
                            for j, c in enumerate(self.list(value, where))))

    def seat_or_none(self, value, where: str, players: int) -> int:
        return NOBODY if value is None else self.int(value, where, 0, players - 1)
