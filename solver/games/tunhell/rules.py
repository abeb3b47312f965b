"""Tunhell rules, introductory and full game, 2-4 players: the plain-Python reference (the oracle
for the Cython engine).

The rulebook is ``shared/rules/tunhell.txt``; ``shared/rules/DECISIONS.md`` fixes card values, the
two symbols ("play now", "stop hand" = proud) and the open points. This module follows both, card
by card, and never imports the compiled kernels. Cards are small integer ids into the card table
of :mod:`solver.games.tunhell.cards` (one id per kind; copies are interchangeable).

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
    DIG_ON    rule option ``dig_may_stop``: after a card, the Digger may dig on or stop
    OVER      the game is over

Action order (a C engine lists them the same way): TURN: RECRUIT by card id, then plays by hand
card id, mine, Bonus multiset (Nawak 0..1, Pickaxe 0..1, Beer 0..n, nested in that order);
FIGHT: W1 count, W2, W3, W4 (0..n each, nested), Digger bonus unused then used; DIG_ON: dig on,
then stop digging.

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
7. Digging is compulsory by default: the Digger draws until its capacity is spent, the mine is
   empty or something stops it ("the player continues to draw if their Digger's capacity allows
   it"). Every card drawn counts against the capacity, whatever it is. So no turn needs an
   "end of turn" decision: a turn is one action and what follows from it.
   Rule option ``dig_may_stop`` (the text's "may then draw ... as many cards as its digging
   capacity allows"): the first card is drawn at once; after each card that lets the dig go on
   (Digger still there, draws left, cards left in the mine) the player decides, phase DIG_ON:
   dig on (the next card) or stop digging (the turn ends, the Digger is discarded). A fight, the
   Golden Heart and the Back Door are resolved first; the question follows them.
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

from bisect import insort
from collections import Counter
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import product

from solver.errors import InputError, shown
from solver.games import FACTS
from solver.games.tunhell.cards import (
    BACK_DOOR,
    BEER,
    CARDS,
    DIGGER_MASK,
    DIRT,
    DWARF_KINDS,
    DWARF_MASK,
    DWOUARF,
    END_KINDS,
    FIGHTERS,
    NAWAK,
    NO_CARD,
    PICKAXE,
    RAT,
    RING,
    TREASURE,
    Deck,
    Role,
    game_cards,
    mask_of,
    name,
)

INFO = FACTS["tunhell"]

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
    dig_may_stop: bool = False     # the Digger may stop after any card (decision 7's option)

    def __post_init__(self):
        if not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise InputError(f"Tunhell is for 2 to 4 players, got {shown(self.players)}")
        if not isinstance(self.intro, bool):
            raise InputError(f"intro must be true or false, got {shown(self.intro)}")
        if not isinstance(self.dig_may_stop, bool):
            raise InputError(f"dig_may_stop must be true or false, got {shown(self.dig_may_stop)}")


class Phase(IntEnum):
    TURN = 0
    PLAY_NOW = 1
    FIGHT = 2
    GOLDEN_HEART = 3
    BACK_DOOR = 4
    OVER = 5
    DIG_ON = 6     # after OVER so the values of the older phases stay as they were


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
    DIG_ON = 9     # rule option dig_may_stop: draw the next card
    STOP = 10      # rule option dig_may_stop: stop digging, the turn ends


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
        if self.move == Move.DIG_ON:
            return "dig on"
        if self.move == Move.STOP:
            return "stop digging"
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
    if s.phase == Phase.DIG_ON:
        return [Action(Move.DIG_ON), Action(Move.STOP)]
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
    elif move == Move.DIG_ON:
        s.phase = Phase.TURN
        _dig(s, drawing=True)
    elif move == Move.STOP:
        _end_turn(s)
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
        _dig(s, drawing=True)
        return
    _end_turn(s)


def _dig(s: State, drawing: bool = False) -> None:
    """Draw card by card and resolve each, until a decision is awaited or the turn or game ends.
    ``drawing``: the next card is drawn without asking (the dig's first card, or "dig on");
    otherwise a card has just been resolved and, under ``dig_may_stop``, the player is asked."""
    while s.digger != NO_CARD and s.dig_left > 0 and s.mines[s.dig_mine]:
        if s.rules.dig_may_stop and not drawing:
            s.phase = Phase.DIG_ON
            return
        drawing = False
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
