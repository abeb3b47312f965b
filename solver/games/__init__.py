"""Plain-Python reference rules, one module per game, and the registry that names them.

A reference module is the rulebook as readable code: the oracle every kernel is checked against.
It never imports ``kernels``.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class GameInfo:
    """What search code may ask of a game before using it."""

    name: str
    min_players: int
    max_players: int
    perfect_information: bool
    chance: bool
    rules_version: int
    summary: str


REGISTRY: dict[str, GameInfo] = {}


def register(info: GameInfo) -> GameInfo:
    REGISTRY[info.name] = info
    return info
