"""The greedy policy's scores and the search's greedy prior, in plain Python on the reference view.

The reference of ``kernels.funkel_playout.greedy_scores`` (the one-push policy the ``greedy`` bot
plays and greedy rollouts use) and of ``kernels.funkel_chance.greedy_prior`` (the chance-node
search's progressive bias): readable, slow, and the oracle the tests compare the kernels with.

A push is scored in "gems", from the mover's view: a gem for oneself is worth 1 plus 3 for every
gem it saves on the way to the goal, divided by the gems still needed after it (WIN_VALUE when it
completes a display); a gem for an opponent costs OPPONENT_WEIGHT of its worth to him (all of
WIN_VALUE if it makes him win). Step 1: the cart the push makes leave the mine (an own colour
cart back in hand is worth CART_BACK). Step 2: each empty cart the push moves under a shaft takes
a gem, counted at LOAD_WEIGHT (a gem not delivered yet; unseen gems at their mean over the unseen
pool). Step 3: a loaded common cart that ends on the last cell of a full rail, where the next
seat can push it out, costs THREAT_WEIGHT of what it is worth to the opponent who likes it most.
Placing a pending common-cart gem (2 players) scores the gem on that display; a pass scores 0.
"""
from __future__ import annotations

from solver.games.funkel.rules import (
    COMMON,
    GEMS,
    GOAL_DIFFERENT,
    GOAL_SAME,
    CartView,
    Pass,
    Place,
    PublicView,
    Push,
    colours_of,
    legal_actions,
    owner_of,
    unseen_pool,
)

WIN_VALUE = 100.0
OPPONENT_WEIGHT = 0.75
LOAD_WEIGHT = 0.5
THREAT_WEIGHT = 0.5
CART_BACK = 0.1
TIE = 1e-9                  # scores this close to the best are equally best
UNSEEN = len(GEMS)          # the gain-table column of a gem nobody has seen


def gem_gain(display: tuple[int, ...], gem: int) -> float:
    """What one more ``gem`` is worth on ``display``."""
    different = sum(1 for n in display if n)
    most = max(display)
    after = list(display)
    after[gem] += 1
    different_after = sum(1 for n in after if n)
    most_after = max(after)
    if different_after >= GOAL_DIFFERENT or most_after >= GOAL_SAME:
        return WIN_VALUE
    need_before = min(GOAL_DIFFERENT - different, GOAL_SAME - most)
    need_after = min(GOAL_DIFFERENT - different_after, GOAL_SAME - most_after)
    return 1.0 + 3.0 * (need_before - need_after) / need_after


def gain_table(view: PublicView) -> list[list[float]]:
    """``gains[colour][g]``: a gem g on ``colour``'s display; ``gains[colour][UNSEEN]``: the
    mean over the unseen pool (1 when nothing is unseen)."""
    pool = unseen_pool(view)
    table = []
    for display in view.displays:
        row = [gem_gain(display, g) for g in range(len(GEMS))]
        row.append(sum(row[g] for g in pool) / len(pool) if pool else 1.0)
        table.append(row)
    return table


def seat_gain(gains, seat: int, players: int, gem: int) -> float:
    """A gem placed on the seat's display that likes it best."""
    return max(gains[colour][gem] for colour in colours_of(seat, players))


def value_for(seat: int, who: int | None, value: float) -> float:
    """A gain of ``value`` for ``who`` (None: the colour nobody plays), as ``seat`` sees it."""
    if who == seat:
        return value
    return -WIN_VALUE if value >= WIN_VALUE else -OPPONENT_WEIGHT * value


def shown_gem(cart: CartView | None) -> int | None:
    """What a cart shows: its gem, UNSEEN when loaded with a gem nobody saw, None if empty."""
    if cart is None or not cart.loaded:
        return None
    return UNSEEN if cart.gem is None else cart.gem


def delivery_value(gains, cart: CartView, seat: int, players: int) -> float:
    """Step 1: a cart leaving the mine on ``seat``'s push."""
    owner = None if cart.kind == COMMON else owner_of(cart.kind, players)
    back = CART_BACK if cart.kind != COMMON and owner == seat else 0.0
    gem = shown_gem(cart)
    if gem is None:
        return back
    if cart.kind == COMMON:
        return seat_gain(gains, seat, players, gem)
    return back + value_for(seat, owner, gains[cart.kind][gem])


def falling_gem(view: PublicView, shaft: int) -> int:
    """The gem a shaft drops from its bottom: known only when it is the one, face-up gem."""
    s = view.shafts[shaft]
    return s.top if s.height == 1 and s.top is not None else UNSEEN


def push_score(view: PublicView, push: Push) -> float:
    seat, players = view.to_move, view.rules.players
    gains = gain_table(view)
    board = view.rules.board
    rail = board.rails[push.rail]
    cells = view.cells
    length = len(rail)
    block = 0                                  # touching carts from the entrance on
    while block < length and cells[rail[block]] is not None:
        block += 1
    score = 0.0
    if block == length:                                            # Step 1
        score += delivery_value(gains, cells[rail[-1]], seat, players)
    moved = min(block, length - 1)
    for i in range(moved + 1):                                     # Step 2
        cart = CartView(push.kind, False) if i == 0 else cells[rail[i - 1]]
        shaft = board.shaft_at(rail[i])
        if shaft is not None and not cart.loaded and view.shafts[shaft].height > 0 and \
                cart.kind != COMMON:
            owner = owner_of(cart.kind, players)
            score += LOAD_WEIGHT * value_for(seat, owner, gains[cart.kind][falling_gem(view,
                                                                                      shaft)])
    full = all(cells[rail[i]] is not None for i in range(moved + 1, length))   # Step 3
    last = cells[rail[-2]] if block >= length - 1 else cells[rail[-1]]
    gem = shown_gem(last)
    if full and gem is not None and last.kind == COMMON:
        threat = max(seat_gain(gains, other, players, gem)
                     for other in range(players) if other != seat)
        score -= THREAT_WEIGHT * (WIN_VALUE if threat >= WIN_VALUE else threat)
    return score


def action_score(view: PublicView, action) -> float:
    if isinstance(action, Pass):
        return 0.0
    if isinstance(action, Place):
        return gain_table(view)[action.display][view.pending]
    return push_score(view, action)


def greedy_scores(view: PublicView) -> list[float]:
    """The greedy score of each legal action, in ``legal_actions`` order."""
    return [action_score(view, a) for a in legal_actions(view)]


def greedy_prior(view: PublicView) -> list[float]:
    """The search's prior: 1 for each action the greedy policy rates best, 0 for the others."""
    scores = greedy_scores(view)
    best = max(scores, default=0.0)
    return [1.0 if s >= best - TIE else 0.0 for s in scores]
