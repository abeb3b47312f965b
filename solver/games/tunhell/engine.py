"""Tunhell glue: the reference rules (``solver.games.tunhell``) joined to the Cython engine
(``kernels.tunhell``). Converts whole states and actions between the two, without JSON."""
from __future__ import annotations

from dataclasses import fields as dataclass_fields

from kernels.tunhell import TunhellEngine, decode_action, encode_action
from solver.games.tunhell import Action, Move, Phase, Rules, State

_STATE_FIELDS = tuple(f.name for f in dataclass_fields(State) if f.name != "rules")


def from_reference(state: State) -> TunhellEngine:
    """The engine holding the same game as a reference State (which is not changed)."""
    values = {name: getattr(state, name) for name in _STATE_FIELDS}
    values.update(players=state.rules.players, intro=state.rules.intro,
                  dig_may_stop=state.rules.dig_may_stop, phase=int(state.phase))
    return TunhellEngine.from_fields(values)


def to_reference(engine: TunhellEngine) -> State:
    """The reference State of the engine's game (equal, field by field, to the reference's)."""
    values = engine.fields()
    rules = Rules(values.pop("players"), values.pop("intro"), values.pop("dig_may_stop"))
    values["phase"] = Phase(values["phase"])
    return State(rules, **values)


def to_code(action: Action) -> int:
    """The engine's action code of a reference Action."""
    return encode_action(int(action.move), action.card, action.mine, action.cards,
                         action.use_digger)


def to_action(code: int) -> Action:
    """The reference Action of an engine action code."""
    move, card, mine, cards, use_digger = decode_action(code)
    return Action(Move(move), card, mine, cards, use_digger)


class Engine:
    """The registry's kernel-bridge interface over the Cython engine (conformance battery)."""

    def __init__(self, state: State):
        self.engine = from_reference(state)

    def legal_actions(self) -> list[Action]:
        return [to_action(code) for code in self.engine.legal_actions()]

    def apply(self, action: Action) -> None:
        self.engine.apply(to_code(action))

    def is_over(self) -> bool:
        return bool(self.engine.is_over())

    def result(self) -> tuple[float, ...]:
        return tuple(self.engine.result())

    def state(self) -> State:
        return to_reference(self.engine)


def load(state: State) -> Engine:
    return Engine(state)
