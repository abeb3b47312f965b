"""Fuzzing the position readers (issue 9): damaged JSON for Funkel Munkel and Tunhell, damaged
Mancala notation. Every input gets either a valid position (which then round-trips and can be
searched briefly) or InputError: never another exception, never a crash, never a hang.

Inputs start from real positions (views and states met in random games) and are damaged the way
hand edits and broken files damage them: a field dropped, duplicated, given another JSON type, a
number perturbed (to the limits of the packed states too), a card or gem swapped for another,
two values swapped; then maybe the text itself: cut short, a byte that is not UTF-8, nested very
deeply, a number with thousands of digits.

Budget: the ``default`` Hypothesis profile (200 examples per reader, a few seconds each); run
``HYPOTHESIS_PROFILE=slow python -m pytest tests/test_fuzz_positions.py`` for far more (or
``--hypothesis-profile=slow``); ``--hypothesis-show-statistics`` prints how many inputs of each
class were tried and what they got (the ``event`` lines). Every example has a deadline.
"""
from __future__ import annotations

import copy
import functools
import json
import os
import random
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from solver.errors import InputError
from solver.games import funkel, mancala, tunhell
from solver.games.tunhell import api as tunhell_api
from solver.games.tunhell.cards import CARDS
from test_cli import run

_COMMON = dict(deadline=timedelta(seconds=10), database=None, derandomize=False,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("fuzz-default", max_examples=200, **_COMMON)
settings.register_profile("slow", max_examples=5000, **_COMMON)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "fuzz-default")
FUZZ = settings.get_profile(PROFILE)
CLI_FILES = 40 if PROFILE == "slow" else 4     # per game, each one subprocess

CARD_NAMES = tuple(c.name for c in CARDS)
GEM_NAMES = tuple(funkel.GEMS)


# --- real positions to start from ---------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def tunhell_bases() -> tuple[str, ...]:
    """Views from random games: every player count, both rule sets, both digging rules, every
    phase met, seen by the mover (searchable) and by another seat."""
    views = []
    for seed, (players, intro, may_stop) in enumerate([
            (2, False, False), (3, False, False), (4, False, False), (2, True, False),
            (3, True, False), (2, False, False), (3, False, True)]):
        rng = random.Random(seed)
        s = tunhell.new_game(tunhell.Rules(players, intro, may_stop), seed)
        step = 0
        while not tunhell.is_over(s):
            if step % 9 == 0 or s.phase != tunhell.Phase.TURN:
                views.append(tunhell.to_json(tunhell.information_set(s, s.to_move)))
                views.append(tunhell.to_json(tunhell.information_set(
                    s, (s.to_move + 1) % players)))
            s = tunhell.apply(s, rng.choice(tunhell.legal_actions(s)), check=False)
            step += 1
        views.append(tunhell.to_json(tunhell.information_set(s, 0)))
    return tuple(views)


@functools.lru_cache(maxsize=None)
def funkel_bases() -> tuple[str, ...]:
    """Full states and public views from random games, both layouts, 2 to 4 players."""
    found = []
    for seed, (players, layout) in enumerate([(2, "pinwheel"), (3, "crossing"), (4, "pinwheel"),
                                              (2, "crossing")]):
        rng = random.Random(seed)
        s = funkel.new_game(funkel.Rules(players, layout), seed)
        step = 0
        while not funkel.is_over(s) and step < 120:
            if step % 7 == 0:
                found += [funkel.to_json(s), funkel.to_json(funkel.public_view(s))]
            s = funkel.apply(s, rng.choice(funkel.legal_actions(s)))
            step += 1
        found += [funkel.to_json(s), funkel.to_json(funkel.public_view(s))]
    return tuple(found)


# --- damage --------------------------------------------------------------------------------------

RETYPES = (None, True, False, 0, -1, 1.5, "x", "", [], {}, [[[]]], {"k": 1})
NUMBER_SHIFTS = (-1, 1, 2, -2, 7, 2 ** 16, 2 ** 31, 2 ** 32, 2 ** 63, 2 ** 64, 10 ** 40)
OPS = ("drop", "duplicate", "retype", "perturb", "swap name", "swap values", "wrap")
TEXT_OPS = ("truncate", "bad byte", "deep nesting", "long number", "junk after", "NaN")


def retype(pick):
    """A fresh copy of one of RETYPES: a later edit may change it in place, and a shared one
    would carry that change into the next example (Hypothesis then sees a flaky strategy)."""
    return copy.deepcopy(RETYPES[pick(len(RETYPES))])


def pick_path(pick, doc) -> list:
    """A random path (keys and indices) to a value inside ``doc`` (never the root)."""
    path, here = [], doc
    while isinstance(here, (dict, list)) and here and (not path or pick(3) > 0):
        keys = list(here) if isinstance(here, dict) else list(range(len(here)))
        key = keys[pick(len(keys))]
        path.append(key)
        here = here[key]
    return path


def damage(doc, pick, names: tuple[str, ...]) -> tuple[object, str]:
    """One damaging edit of a JSON value (in place where possible); the edit's class name."""
    path = pick_path(pick, doc)
    if not path:
        return retype(pick), "retype"
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key, value = path[-1], parent[path[-1]]
    op = OPS[pick(len(OPS))]
    if op == "drop":
        del parent[key]
    elif op == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        else:
            others = list(parent)
            parent[key] = copy.deepcopy(parent[others[pick(len(others))]])
    elif op == "retype":
        parent[key] = retype(pick)
    elif op == "perturb":
        shift = NUMBER_SHIFTS[pick(len(NUMBER_SHIFTS))]
        if isinstance(value, bool):
            parent[key] = not value
        elif isinstance(value, int):
            parent[key] = value + shift if pick(2) else -value - shift
        else:
            parent[key] = shift
    elif op == "swap name":
        parent[key] = names[pick(len(names))]
    elif op == "swap values":
        other_path = pick_path(pick, doc)
        if other_path:
            other_parent = doc
            for k in other_path[:-1]:
                other_parent = other_parent[k]
            try:
                other = other_parent[other_path[-1]]
                parent[key], other_parent[other_path[-1]] = other, value
            except (KeyError, IndexError):   # the first edit moved the second path away
                pass
    else:
        parent[key] = [value]
    return doc, op


def damage_text(text: str, pick) -> tuple[str | bytes, str]:
    op = TEXT_OPS[pick(len(TEXT_OPS))]
    if op == "truncate":
        return text[:pick(len(text))], op
    if op == "bad byte":
        at = pick(len(text))
        raw = text.encode()
        return raw[:at] + bytes([0x80 + pick(0x80)]) + raw[at:], op
    if op == "deep nesting":
        depth = 100_000
        return "[" * depth + text + "]" * depth, op
    if op == "long number":
        at = text.find(": ", pick(len(text)))
        return (text if at < 0 else text[:at + 2] + "9" * 5000 + ", " + text[at + 2:]), op
    if op == "junk after":
        return text + " }", op
    return text.replace("0", "NaN", 1), op


def damaged_input(pick, base: str, names: tuple[str, ...], edits: int, text_op: bool,
                  note=event) -> str | bytes:
    """``base`` with ``edits`` damaging edits and maybe a damaged text; ``note`` is told the
    class of each edit (Hypothesis' ``event`` by default)."""
    doc = json.loads(base)
    for _ in range(edits):
        doc, op = damage(doc, pick, names)
        note(f"edit: {op}")
    text = json.dumps(doc)
    if text_op:
        text, op = damage_text(text, pick)
        note(f"text: {op}")
    if edits == 0 and not text_op:
        note("edit: none (a real position)")
    return text


@st.composite
def damaged(draw, bases, names):
    base = draw(st.sampled_from(bases()))
    pick = lambda n: draw(st.integers(0, n - 1))  # noqa: E731
    edits = draw(st.integers(0, 3))
    return damaged_input(pick, base, names, edits, draw(st.integers(0, 3)) == 0)


# --- the properties ------------------------------------------------------------------------------

def tunhell_answer(text, search_seed: int = 0, search: bool = True) -> str:
    """from_json's verdict; a valid view must round-trip and, if its seat is to move, survive a
    short search by both methods."""
    try:
        info = tunhell.from_json(text)
    except InputError:
        return "InputError"
    assert tunhell.from_json(tunhell.to_json(info)) == info
    if tunhell.is_over(info) or info.to_move != info.seat or not search:
        return "valid"
    for method in tunhell_api.METHODS:
        found = tunhell_api.best_action(info, method=method, iterations=24, seed=search_seed)
        assert found.best in [m.action for m in found.moves]
    return "valid, searched"


def funkel_answer(text) -> str:
    try:
        position = funkel.from_json(text)
    except InputError:
        return "InputError"
    assert funkel.from_json(funkel.to_json(position)) == position
    if funkel.is_over(position):
        return "valid"
    from solver.games.funkel import api as funkel_api
    try:
        found = funkel_api.estimate_moves(position, samples=3)
    except InputError:         # a consistent file whose unseen gems do not fill its places
        return "valid, refused by the estimator"
    assert found.best in [m.action for m in found.moves]
    return "valid, searched"


@FUZZ
@given(damaged(tunhell_bases, CARD_NAMES), st.integers(0, 2 ** 32))
def test_damaged_tunhell_views_are_read_or_refused_in_one_line(text, seed):
    event(f"answer: {tunhell_answer(text, seed)}")


@FUZZ
@given(damaged(funkel_bases, GEM_NAMES))
def test_damaged_funkel_positions_are_read_or_refused_in_one_line(text):
    event(f"answer: {funkel_answer(text)}")


def test_every_real_position_is_read_back():
    """The starting points are valid (else the fuzzers would only test refusals); every fifth
    one is searched too."""
    answers = {tunhell_answer(text, search=i % 5 == 0) for i, text in enumerate(tunhell_bases())}
    assert answers == {"valid", "valid, searched"}
    assert {funkel_answer(text) for text in funkel_bases()} >= {"valid", "valid, searched"}


# --- Mancala notation ----------------------------------------------------------------------------

MANCALA_CHARS = "0123456789,/ -ABx+\t\n"


@st.composite
def damaged_notation(draw):
    pits = draw(st.integers(1, 8))
    bins = draw(st.lists(st.integers(0, 12), min_size=2 * pits, max_size=2 * pits))
    text = (",".join(map(str, bins[:pits])) + "/" + ",".join(map(str, bins[pits:]))
            + f" {draw(st.integers(0, 40))}-{draw(st.integers(0, 40))} "
            + draw(st.sampled_from("AB")))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "long number"]))
        event(f"edit: {edit}")
        if edit == "insert":
            text = text[:at] + draw(st.sampled_from(MANCALA_CHARS)) + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + 1:]
        else:
            text = text[:at] + "9" * draw(st.sampled_from([3, 30, 5000])) + text[at:]
    return text


@FUZZ
@given(st.one_of(damaged_notation(), st.text(max_size=60)))
def test_damaged_mancala_notation_is_read_or_refused(text):
    try:
        pos = mancala.from_text(text)
    except InputError:
        event("answer: InputError")
        return
    event("answer: valid")
    assert mancala.from_text(mancala.to_text(pos)) == pos


@pytest.mark.parametrize("text", ["4,4,4,4,4,4/4,4,4,4,4,4 0-0 A".replace("0-0", "9" * 5000 + "-0"),
                                  "9" * 5000 + ",4,4,4,4,4/4,4,4,4,4,4 0-0 A"])
def test_a_mancala_number_of_thousands_of_digits_is_refused_in_one_line(text):
    with pytest.raises(InputError):
        mancala.from_text(text)


# --- the command line on a sample of damaged files -----------------------------------------------

def damaged_files(directory, bases, names, count: int, seed: int) -> list:
    rng = random.Random(seed)
    files = []
    for i in range(count):
        text = damaged_input(rng.randrange, rng.choice(bases()), names, rng.randint(0, 2),
                             rng.random() < 0.3, note=lambda what: None)
        path = directory / f"damaged{i}.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        files.append(path)
    return files


@pytest.mark.parametrize("game, bases, names, budget", [
    ("tunhell", tunhell_bases, CARD_NAMES, "--iterations"),
    ("funkel", funkel_bases, GEM_NAMES, "--samples"),
])
def test_the_cli_answers_damaged_files_or_refuses_them_in_one_line(tmp_path, game, bases, names,
                                                                   budget):
    for path in damaged_files(tmp_path, bases, names, CLI_FILES, seed=len(game)):
        given = [str(path)]
        raw = path.read_bytes()
        if b"\0" not in raw and len(raw) < 100_000:    # what an argument can carry: inline too
            given.append(raw.decode("utf-8", "surrogateescape"))
        for position in given:
            done = run("best", game, position, budget, "20", timeout=60)
            assert "Traceback" not in done.stderr, done.stderr
            if done.returncode != 0:
                assert done.returncode == 2, (raw[:200], done.stderr)
                lines = done.stderr.strip().splitlines()
                assert len(lines) == 1 and lines[0].startswith("solver: error: "), done.stderr


# --- the engine's own door: what a Python caller hands the compiled code -------------------------

def engine_fields(wanted=lambda f: f["phase"] == int(tunhell.Phase.TURN)):
    """The engine fields of the first state ``wanted`` accepts in seeded random games."""
    from kernels.tunhell import TunhellEngine
    for seed in range(200):
        engine = TunhellEngine(2, False, seed)
        rng = random.Random(seed)
        while not engine.is_over():
            if wanted(engine.fields()):
                return engine.fields()
            engine.apply_index(rng.randrange(len(engine.legal_actions())))
    raise AssertionError("no such state met")


BROKEN_FIELDS = {
    "turn beyond int32": lambda f: f.update(turn=2 ** 31),
    "chance beyond 64 bits": lambda f: f.update(chance=2 ** 64),
    "a seen position outside the mine": lambda f: f["seen"][0].__setitem__(0, 1 << 30),
    "a known card not in the hand": lambda f: f["hand_seen"][0].append(31),
    "hand_never not a mask": lambda f: f["hand_never"].__setitem__(1, -1),
}


@pytest.mark.parametrize("damage", BROKEN_FIELDS.values(), ids=BROKEN_FIELDS.keys())
def test_the_engine_refuses_fields_it_cannot_hold(damage):
    from kernels.tunhell import TunhellEngine
    fields = engine_fields()
    damage(fields)
    with pytest.raises(ValueError):
        TunhellEngine.from_fields(fields)


def test_the_engine_refuses_a_fight_nobody_can_win():
    """A fight whose enemy beats the Digger's bonus alone, once the mover's Warriors there are
    moved to the discard: the rules would have put the enemy back instead."""
    from kernels.tunhell import TunhellEngine

    def hopeless_without_warriors(f):
        return (f["phase"] == int(tunhell.Phase.FIGHT) and not f["boosts"]
                and tunhell.CARDS[f["digger"]].bonus < tunhell.CARDS[f["pending"]].combat)
    fields = engine_fields(hopeless_without_warriors)
    mover, mine = fields["to_move"], fields["dig_mine"]
    fields["dwarf_discard"] += fields["warriors"][mover][mine]
    fields["warriors"][mover][mine] = []
    with pytest.raises(ValueError, match="no legal action"):
        TunhellEngine.from_fields(fields)


def test_pimc_refuses_an_action_code_that_is_not_legal():
    import numpy as np

    from kernels.tunhell import TunhellEngine, encode_action
    from kernels.tunhell_sample import StateSampler
    from kernels.tunhell_search import pimc_rounds
    engine = TunhellEngine(2, False, 3)
    legal = engine.legal_actions()
    forged = encode_action(int(tunhell.Move.DYNAMITE), 12, 2) | (3 << 9)   # mine 3 of 0..2
    shares, margins = np.zeros((1, 2)), np.zeros((1, 2))
    with pytest.raises(ValueError, match="not legal"):
        pimc_rounds(StateSampler(engine, 0), np.array([legal[0], forged], dtype=np.uint32), 0,
                    1, 0, shares, margins)
