"""Golden playthroughs: for every registered game and rule variant, one seeded game written as
a text transcript in ``tests/playthroughs/`` (every position, its legal actions, the action
taken, the result). A test replays each and diffs it against the file, so a rules change shows
up as a readable diff; the file's header names the ``rules_version`` it was written under, and a
changed game must come with a bumped ``rules_version`` and regenerated transcripts:

    SOLVER_WRITE_PLAYTHROUGHS=1 python -m pytest tests/test_playthroughs.py
"""
import difflib
import json
import os
import random
from pathlib import Path

import pytest

from solver import games as registry

HERE = Path(__file__).parent / "playthroughs"
SEED = 2026
CASES = [(game.name, variant) for game in registry.all_games() for variant in game.variants]


def file_name(name: str, variant: dict) -> str:
    return name + "".join(f"_{k}-{v}" for k, v in sorted(variant.items())) + ".txt"


def position_lines(text: str, previous: str | None) -> list[str]:
    """A position in the transcript: notation on one line; a JSON position whole the first
    time, then only its top-level fields that changed (so each step stays readable)."""
    if not text.startswith("{"):
        return [f"  position: {text}"]
    doc = json.loads(text)
    before = json.loads(previous) if previous else {}
    changed = {k: v for k, v in doc.items() if before.get(k, object()) != v}
    if not before:
        return ["  position:"] + [f"    {k}: {json.dumps(v)}" for k, v in doc.items()]
    return ["  changed:"] + [f"    {k}: {json.dumps(v)}" for k, v in changed.items()]


def transcript(game, variant: dict) -> str:
    """The seeded game as text: the header, then for each step the position the mover sees
    (the whole position in a perfect-information game; for a hidden-information game the
    view of seat 0, written as what changed since the previous step's), the legal actions
    and the action taken."""
    ref, rules = game.reference(), game.rules(**variant)
    rng, state = random.Random(SEED), ref.new_game(rules, SEED)
    lines = [f"# {game.name} rules_version {game.info.rules_version}; rules {rules!r}; "
             f"seed {SEED}; actions drawn uniformly by random.Random({SEED})"]
    step, previous = 0, None
    while not ref.is_over(state):
        seat = ref.current_player(state)
        shown = ref.to_text(state if game.info.perfect_information else ref.observe(state, 0))
        actions = ref.legal_actions(state)
        action = rng.choice(actions)
        lines += [f"step {step}: seat {seat} to move"] + position_lines(shown, previous) + [
            "  legal: " + " | ".join(ref.action_to_text(state, a) for a in actions),
            f"  action: {ref.action_to_text(state, action)}"]
        state, step, previous = ref.apply(state, action), step + 1, shown
    final = ref.to_text(state if game.info.perfect_information else ref.observe(state, 0))
    lines += [f"end after {step} steps"] + position_lines(final, None) + [
        f"  result: {' '.join(f'{share:g}' for share in ref.result(state))}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name,variant", CASES, ids=[file_name(*c)[:-4] for c in CASES])
def test_the_game_replays_its_golden_transcript(name, variant):
    game = registry.get(name)
    path, text = HERE / file_name(name, variant), transcript(game, variant)
    if os.environ.get("SOLVER_WRITE_PLAYTHROUGHS"):
        path.write_text(text)
    assert path.exists(), f"no transcript {path.name}: write it with SOLVER_WRITE_PLAYTHROUGHS=1"
    golden = path.read_text()
    header = golden.splitlines()[0]
    assert f"rules_version {game.info.rules_version};" in header, (
        f"{path.name} was written under another rules_version: regenerate it")
    if golden != text:
        diff = "".join(difflib.unified_diff(golden.splitlines(True), text.splitlines(True),
                                            str(path.name), "now", n=1))
        pytest.fail(f"{name} plays differently from its golden transcript without a "
                    f"rules_version bump:\n{diff[:4000]}")
