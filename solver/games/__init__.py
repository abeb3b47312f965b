"""The game registry and the game contract: every game is one :class:`Game` record here.

Contract. A game's package (``solver.games.<name>``) is its plain-Python reference, the oracle
every kernel is checked against; it never imports ``kernels``, and every game spells its rules
with the same names:

    Rules(...)                        the rule options (a frozen dataclass)
    new_game(rules, seed=None)        the start (a deal drawn from ``seed``; None: at random)
    current_player(state)             the seat to move
    legal_actions(state)              the actions of that seat, in a fixed order; [] once over
    apply(state, action)              the next state (a new object: the input is never changed)
    is_over(state)                    the game has ended
    result(state)                     per seat, in [0, 1], summing to 1 (1/k for a k-way share)
    to_text(position) / from_text(text)      the position codec (round-trips)
    action_to_text(state, action)     an action's name; ``action_from_text`` reads one back
    draw(position)                    a picture for people

Hidden-information games add ``observe(state, seat)`` (what that seat knows, a position the codec
writes) and ``sample(view, rng)`` (a state drawn among those consistent with a view).

The record adds what the rest of the toolkit reads: the facts (:class:`GameInfo`), the command
line options (data, :mod:`solver.options`), and where the user API, the command bridge, the
bots and the bench positions live. Algorithms call :meth:`Game.require` with what they need and
refuse a game that cannot give it with a clear message.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from types import ModuleType

from solver.errors import InputError



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


# The registry's facts, one GameInfo per game (each reference module's ``INFO``), kept here so
# that listing the games (``solver --help``, ``--version``) imports no game.
FACTS = {info.name: info for info in (
    GameInfo(name="mancala", min_players=2, max_players=2, perfect_information=True,
             chance=False, rules_version=1,
             summary="Kalah(m,n): sowing, extra turns on the store, captures"),
    GameInfo(name="funkel", min_players=2, max_players=4, perfect_information=False,
             chance=True, rules_version=1,
             summary="Funkel Munkel: push mine carts under gem shafts, deliver gems"),
    GameInfo(name="tunhell", min_players=2, max_players=4, perfect_information=False,
             chance=True, rules_version=2,
             summary="Tunhell: recruit dwarves, dig three mines, fight, score the loot"),
)}
GAMES = tuple(FACTS)   # the registry, in the order the CLI lists them


@dataclass(frozen=True)
class Game:
    """One game of the registry (module docstring).

    ``capabilities``: the searches the game offers (``alphabeta``, ``mcts``, ``estimate``,
    ``ismcts``, ``pimc``, ``exact``, ``tables``). ``rules_options`` build ``Rules`` (their names
    are its fields); ``best_options`` / ``new_options`` / ``play_options`` are the extra options
    of those commands. ``commands``: the module bridging the CLI to the user API (``best``,
    ``new``, ``play``, ``match``, ``bots``). ``bench_positions``: its file in
    ``solver/data/positions``. ``variants``: the rule options (keyword dicts for
    :meth:`rules`) whose games the conformance battery and the golden playthroughs cover."""

    info: GameInfo
    commands: str
    api: str
    capabilities: frozenset[str]
    rules_options: tuple = ()
    best_options: tuple = ()
    new_options: tuple = ()
    position_help: str = "the position"
    position_required: bool = True
    bench_positions: str = ""
    human_play: bool = False
    variants: tuple = ()        # rule options worth checking apart (conformance, playthroughs)

    @property
    def name(self) -> str:
        return self.info.name

    def reference(self) -> ModuleType:
        return importlib.import_module(f"solver.games.{self.name}")

    def command_bridge(self) -> ModuleType:
        return importlib.import_module(self.commands)

    def user_api(self) -> ModuleType:
        return importlib.import_module(self.api)

    def engine(self) -> ModuleType:
        """The kernel bridge: ``load(state)`` -> an engine with ``legal_actions()``,
        ``apply(action)``, ``is_over()``, ``result()`` and ``state()`` (the reference state back)."""
        return importlib.import_module(f"solver.games.{self.name}.engine")

    def rules(self, **options):
        """The game's ``Rules`` from keyword options named like its fields (None: the default)."""
        given = {k: v for k, v in options.items() if v is not None}
        rules = self.reference().Rules
        fields = rules.__dataclass_fields__
        unknown = sorted(set(given) - set(fields))
        if unknown:
            raise InputError(f"{self.name} rules have no {', '.join(unknown)} (they have "
                             f"{', '.join(fields)})")
        missing = [name for name, field in fields.items() if name not in given and
                   field.default is dataclasses.MISSING and
                   field.default_factory is dataclasses.MISSING]
        if missing:
            raise InputError(f"{self.name} rules need {', '.join(missing)}")
        return rules(**given)

    def require(self, capability: str, algorithm: str) -> None:
        """Refuse an algorithm this game cannot run, with a message that says why."""
        if isinstance(capability, str) and capability in self.capabilities:
            return
        why = "it hides information from the players" if not self.info.perfect_information \
            else "it does not offer it"
        raise InputError(f"{algorithm} cannot play {self.name}: {why} (it offers "
                         f"{', '.join(sorted(self.capabilities))})")


def get(name: str) -> Game:
    """The registry record of a game by name."""
    if name not in GAMES:
        raise InputError(f"unknown game {name!r}: choose {', '.join(GAMES)}")
    return importlib.import_module(f"solver.games.{name}").GAME


def all_games() -> list[Game]:
    return [get(name) for name in GAMES]
