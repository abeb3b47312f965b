"""Tunhell information sets: what one seat knows, what a view may claim (:func:`check_info`, which
the JSON reader calls before anything reaches the engine), and a uniform sampler of the states
consistent with it (the reference the C determinizer is checked against)."""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from solver.errors import InputError, shown
from solver.games.tunhell.cards import (
    ALL_KINDS_MASK,
    BACK_DOOR,
    BEER,
    CARDS,
    DIGGER_MASK,
    DIRT,
    NAWAK,
    NO_CARD,
    PICKAXE,
    RAT,
    Deck,
    Role,
    game_cards,
    mask_of,
    name,
)
from solver.games.tunhell.rules import (
    CENTER_SIZE,
    END_SET_ASIDE,
    HAND_LIMIT,
    MINES,
    NO_MINE,
    NOBODY,
    SET_ASIDE,
    Phase,
    Rules,
    State,
    _drawn_from,
    _hidden_count,
    all_cards,
    dig_capacity,
    enemy_value,
    legal_actions,
)

# The engine keeps ``turn`` and ``shuffles`` in int32 and adds one per action; a search plays at
# most about 10^5 actions from a position, so views are refused well before 2^31 - 1.
MAX_TURN = 2 ** 30

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
        raise InputError(f"seat {shown(seat)} is not in a {n}-player game")
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
    check_info(info)
    return _deal_state(info, rng)


def _deal_state(info: InfoSet, rng: random.Random) -> State:
    """:func:`sample_state` without the checks (``check_info`` calls it on a checked view)."""
    i, n = info, info.rules.players
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
    if not ok:      # the document itself is "position": said once
        where = "" if field_name == "position" else f" {field_name}:"
        raise InputError(f"tunhell position:{where} {why}")


def _deck_is(cards, deck: Deck, field_name: str) -> None:
    for j, card in enumerate(cards):
        _expect(CARDS[card].deck == deck, f"{field_name}[{j}]",
                f"{name(card)} is not a {deck.name.title()} card")


def max_mine_size(rules: Rules) -> int:
    dealt = sum(game_cards(Deck.MINE, rules.intro).values()) - SET_ASIDE[rules.intro]
    return dealt // MINES + (0 if rules.intro else 1)


def check_info(info: InfoSet) -> None:
    """Raise InputError, naming the JSON field, if ``info`` is not a position the game can hold:
    fields in range, every card once, hands and places that add up. (What the rules can reach
    from a real deal is :func:`check_reachable`'s business.)"""
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
    digging = i.phase in _PENDING_ROLE or i.phase == Phase.DIG_ON
    _expect(0 <= i.turn <= MAX_TURN, "turn", f"must be 0..{MAX_TURN}")
    _expect(0 <= i.shuffles <= MAX_TURN, "dwarf_pile.shuffles", f"must be 0..{MAX_TURN}")
    _expect(i.passes >= 0, "passes", "must not be negative")
    _expect(digging or i.digger == NO_CARD, "dig",
            f"no dig is in progress in phase {i.phase.name.lower()}")
    if i.digger != NO_CARD or digging:
        _expect(i.digger != NO_CARD and CARDS[i.digger].role == Role.DIGGER, "dig.digger",
                "a dig needs a Digger")
        _expect(i.dig_mine in range(MINES), "dig.mine", "must be 0..2")
        _expect(all(CARDS[k].role == Role.BONUS for k in i.boosts), "dig.bonuses",
                "Bonuses only")
        _expect(i.dig_left >= 0, "dig.left", "must not be negative")
        _expect(i.boosts.count(BEER) <= 2 and i.boosts.count(NAWAK) <= 1
                and i.boosts.count(PICKAXE) <= 1, "dig.bonuses", "more Bonuses than the game has")
    else:
        _expect(not i.boosts and i.dig_left == 0 and i.dig_mine == NO_MINE, "dig",
                "no dig without a Digger")
    if i.phase == Phase.DIG_ON:
        _expect(i.rules.dig_may_stop, "phase",
                "dig-on exists only under the rule option dig_may_stop")
        _expect(i.dig_left > 0 and i.mine_sizes[i.dig_mine] > 0, "dig",
                "dig-on asks only while the Digger has draws left and its mine has cards")
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


# --- what the rules can reach ---------------------------------------------------------------------

def check_reachable(info: InfoSet) -> None:
    """Raise InputError, naming the JSON field, if a consistent view (:func:`check_info`) claims
    what no game reaches from a real deal: a box of the wrong size, a trophy with the wrong
    holder, passes that would have ended the game, a dig with more draws left than its Digger
    ever had, or a seat to move with no legal action (the engine then has nothing to search).
    The JSON reader calls it; hand-built test tables need not pass it."""
    i, n = info, info.rules.players
    boxed = SET_ASIDE[i.rules.intro] + (0 if i.rules.intro else END_SET_ASIDE)
    _expect(i.box_size == boxed, "box", f"setup puts {boxed} cards in the box, got {i.box_size}")
    _expect(i.passes < n or i.phase == Phase.OVER, "passes",
            f"{i.passes} passes in a row by {n} players: the game is over")
    _expect(i.passes == 0 or i.phase in (Phase.TURN, Phase.OVER), "passes",
            f"a pass ends the turn, so phase {i.phase.name.lower()} follows no pass")
    if i.digger != NO_CARD:
        most = dig_capacity(i.digger, i.boosts) - 1      # the card being resolved was drawn
        _expect(i.dig_left <= most, "dig.left",
                f"{name(i.digger)} with {len(i.boosts)} Bonus(es) has at most {most} draws left "
                f"after the card being resolved, got {i.dig_left}")
    _check_trophies(i)
    _check_mover_can_act(i)


def _check_trophies(i: InfoSet) -> None:
    """Loot is never lost, so a trophy is held exactly when someone has its card, by a seat with
    the most of them (a tie goes to the later, so the holder has at least as many as anyone)."""
    if i.rules.intro:
        return
    for trophy, holder, card in (("employee_of_the_month", i.employee, DIRT),
                                 ("exterminator", i.exterminator, RAT)):
        counts = [loot.count(card) for loot in i.loot]
        what = name(card)
        if max(counts) == 0:
            _expect(holder == NOBODY, f"trophies.{trophy}",
                    f"nobody has a {what} card in his loot, so nobody holds the trophy")
        else:
            _expect(holder != NOBODY, f"trophies.{trophy}",
                    f"the first seat to loot a {what} card took the trophy: it cannot be null")
            _expect(counts[holder] == max(counts), f"trophies.{trophy}",
                    f"seat {holder} has {counts[holder]} {what} card(s), another seat "
                    f"{max(counts)}: the trophy would have passed")


def _check_mover_can_act(i: InfoSet) -> None:
    """The rules never leave the seat to move without an action: a fight is entered only when the
    enemy can be beaten, the Golden Heart only with a Digger in hand, a play-now card only when it
    can go somewhere. Checked with the reference on a consistent state, where that answer is the
    same in every such state (all of it public, or the mover is the viewer)."""
    if i.phase == Phase.OVER:
        return
    if i.phase == Phase.GOLDEN_HEART and i.to_move != i.seat:
        _expect(_may_hold_digger(i, i.to_move), "phase",
                f"golden-heart needs a Digger in seat {i.to_move}'s hand, and it can hold none")
        return
    state = _deal_state(i, random.Random(0))
    if i.phase == Phase.FIGHT:
        _expect(enemy_value(state, i.pending) > 0, "pending",
                f"{name(i.pending)} is beaten without a fight here (Dwouarf)")
    if not legal_actions(state):
        why = {Phase.FIGHT: f"the Warriors and Digger at mine {i.dig_mine} cannot beat "
                            f"{name(i.pending)} (an unbeatable enemy goes back face down)",
               Phase.GOLDEN_HEART: "the mover has no Digger in hand to carry the golden heart",
               Phase.PLAY_NOW: f"{name(i.pending)} can be played nowhere (it is only recruited "
                               "when it can)",
               Phase.BACK_DOOR: "no mine is left to place the back door facing"}
        _expect(False, "phase", f"{i.phase.name.lower().replace('_', '-')}: "
                f"{why.get(i.phase, 'the seat to move has no legal action')}")


def _may_hold_digger(i: InfoSet, seat: int) -> bool:
    if any(i.hand_seen[seat].count(k) for k in _kinds_of(DIGGER_MASK)):
        return True
    unseen = unseen_pools(i)[Deck.DWARF]
    allowed = DIGGER_MASK & ~i.hand_never[seat]
    return i.hidden[seat] > 0 and any(allowed >> k & 1 for k in unseen)


def _kinds_of(mask: int) -> list[int]:
    return [k for k in range(mask.bit_length()) if mask >> k & 1]
