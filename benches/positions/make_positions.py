"""How solver/data/positions/funkel.jsonl and tunhell.jsonl were made (kept for provenance: the
lists are versioned data; never regenerate them over the old files, add new names instead).

    python benches/positions/make_positions.py

Positions are dealt from fixed seeds and advanced by uniformly random legal actions drawn from
a fixed-seed generator, so the same script always writes the same lines."""
import json
import random
from pathlib import Path

from solver.games import funkel, tunhell

HERE = Path(__file__).resolve().parents[2] / "solver" / "data" / "positions"

FUNKEL = [("start-2p", 2, "pinwheel", 1, 0), ("start-3p", 3, "pinwheel", 2, 0),
          ("start-4p-crossing", 4, "crossing", 3, 0), ("middle-2p", 2, "pinwheel", 4, 24),
          ("middle-3p", 3, "pinwheel", 5, 30), ("endgame-2p", 2, "pinwheel", 6, 60)]
TUNHELL = [("start-2p", 2, False, 1, 0), ("start-3p-intro", 3, True, 2, 0),
           ("start-4p", 4, False, 3, 0), ("middle-2p", 2, False, 4, 80),
           ("middle-3p-intro", 3, True, 5, 100), ("late-2p", 2, False, 6, 200)]


def advance(game, state, steps, rng):
    """``steps`` random actions, skipping any that would end the game (a bench position must
    have moves to search)."""
    for _ in range(steps):
        actions = game.legal_actions(state)
        rng.shuffle(actions)
        going_on = [a for a in actions if not game.is_over(game.apply(state, a))]
        if not going_on:
            break
        state = game.apply(state, going_on[0])
    return state


def funkel_lines():
    for name, players, layout, seed, steps in FUNKEL:
        state = funkel.new_game(funkel.Rules(players, layout), seed)
        state = advance(funkel, state, steps, random.Random(seed))
        yield {"name": name, "position": json.loads(funkel.to_json(funkel.public_view(state)))}


def tunhell_lines():
    for name, players, intro, seed, steps in TUNHELL:
        state = tunhell.new_game(tunhell.Rules(players, intro), seed)
        state = advance(tunhell, state, steps, random.Random(seed))
        view = tunhell.information_set(state, state.to_move)
        yield {"name": name, "position": json.loads(tunhell.to_json(view))}


def write(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


if __name__ == "__main__":
    write(HERE / "funkel.jsonl", funkel_lines())
    write(HERE / "tunhell.jsonl", tunhell_lines())
