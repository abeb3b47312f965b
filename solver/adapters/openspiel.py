"""The registry's games as pyspiel Python games: ``import solver.adapters.openspiel`` registers
``solver_mancala`` (pits, stones, capture_empty), ``solver_funkel`` (players, layout,
hidden_shafts) and ``solver_tunhell`` (players, intro, rng_seed), so that
``pyspiel.load_game("solver_tunhell(players=3)")`` runs OpenSpiel's algorithms on them.

The game logic is our reference, called through :mod:`solver.adapters` (action numbers, chance
nodes, features). How each game meets OpenSpiel's game type:

=========  =====================  ====================  =========================================
game       information            chance mode           chance nodes
=========  =====================  ====================  =========================================
mancala    perfect                deterministic         none
funkel     perfect (shared view)  explicit stochastic   the 8 shaft tops at setup, each unseen
                                                        cart's gem as it leaves the mine
tunhell    imperfect              sampled stochastic    one, the deal: its seed comes from the
                                                        game's generator (``rng_seed``, -1: fresh)
=========  =====================  ====================  =========================================

Returns are zero-sum: n * share - 1 (:func:`solver.adapters.returns_of`). Information state and
observation strings are one text per seat: what the seat knows as the game's codec writes it
(Tunhell: the seat's information set, which keeps what the rules say a seat remembers, not the
order of every past event; see the README for that choice).
"""
from __future__ import annotations

import random

import numpy as np
import pyspiel

from solver import games
from solver.adapters import BRIDGES, CHANCE, bridge, returns_of

SPIEL_NAMES = {name: f"solver_{name}" for name in games.GAMES if name in BRIDGES}


def _game_type(name: str, proto) -> pyspiel.GameType:
    GT = pyspiel.GameType
    chance = {"none": GT.ChanceMode.DETERMINISTIC, "explicit": GT.ChanceMode.EXPLICIT_STOCHASTIC,
              "sampled": GT.ChanceMode.SAMPLED_STOCHASTIC}[proto.chance]
    info = proto.game.info
    return GT(
        short_name=SPIEL_NAMES[name], long_name=f"solver {name} ({info.summary})",
        dynamics=GT.Dynamics.SEQUENTIAL, chance_mode=chance,
        information=(GT.Information.PERFECT_INFORMATION if proto.perfect_information
                     else GT.Information.IMPERFECT_INFORMATION),
        utility=GT.Utility.ZERO_SUM, reward_model=GT.RewardModel.TERMINAL,
        max_num_players=info.max_players, min_num_players=info.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={**proto.params, **proto.extra_params})


class SolverGame(pyspiel.Game):
    """One of our games with its rule parameters (class attribute ``game_name``)."""

    game_name = ""

    def __init__(self, params=None):
        params = dict(params or {})
        seed = params.pop("rng_seed", -1)
        self.bridge = bridge(self.game_name, **params)
        self.rng = random.Random(None if seed is None or seed < 0 else seed)
        b = self.bridge
        n = b.players
        super().__init__(_TYPES[self.game_name], pyspiel.GameInfo(
            num_distinct_actions=b.num_actions(), max_chance_outcomes=b.max_chance_outcomes,
            num_players=n, min_utility=-1.0, max_utility=n - 1.0, utility_sum=0.0,
            max_game_length=b.max_game_length()),
            {**b.values, **({"rng_seed": seed} if b.extra_params else {})})

    def new_initial_state(self):
        return SolverState(self)

    # sampled-stochastic games save and restore the generator with a serialized state
    def get_rng_state(self):
        version, words, gauss = self.rng.getstate()
        return " ".join(map(str, (version, gauss) + words))

    def set_rng_state(self, text):
        version, gauss, *words = text.split()
        self.rng.setstate((int(version), tuple(int(w) for w in words),
                           None if gauss == "None" else float(gauss)))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SolverObserver(self.bridge, iig_obs_type, params)


class SolverState(pyspiel.State):
    """A node of the bridge (a reference state, a Funkel view, or Tunhell before the deal)."""

    def __init__(self, game: SolverGame, node=None, started=False):
        super().__init__(game)
        self.node = node if started else game.bridge.start()

    # the bridge and the generator live on the game: a clone (deepcopy) copies only the node
    @property
    def bridge(self):
        return self.get_game().bridge

    @property
    def rng(self):
        return self.get_game().rng

    def current_player(self):
        if self.bridge.is_over(self.node):
            return pyspiel.PlayerId.TERMINAL
        player = self.bridge.current_player(self.node)
        return pyspiel.PlayerId.CHANCE if player == CHANCE else player

    def _legal_actions(self, player):
        return self.bridge.legal_ids(self.node)

    def chance_outcomes(self):
        return self.bridge.chance_outcomes(self.node)

    def _apply_action(self, action):
        if self.bridge.is_chance(self.node):
            self.node = self.bridge.apply_chance(self.node, int(action), self.rng)
        else:
            self.node = self.bridge.apply_id(self.node, int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self.bridge.action_text(self.node, int(action))

    def is_terminal(self):
        return self.bridge.is_over(self.node)

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.bridge.players
        return returns_of(self.bridge.shares(self.node))

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state drawn uniformly among those ``player_id`` cannot tell from this one (the
        game's ``sample``; perfect-information games: this state). OpenSpiel's sampler is not
        used: the draw comes from the game's generator."""
        node = self.bridge.resample(self.node, player_id, self.rng)
        clone = self.clone()
        clone.node = node
        return clone

    def __str__(self):
        return self.bridge.draw(self.node)


class SolverObserver:
    """Strings and tensors of what a seat knows (one observer for both kinds of request)."""

    def __init__(self, game_bridge, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.bridge = game_bridge
        self.tensor = np.zeros(game_bridge.feature_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = self.bridge.features(state.node, player)

    def string_from(self, state, player):
        return self.bridge.knowledge(state.node, player)


def _game_class(name: str) -> type:
    return type(f"Solver{name.title()}Game", (SolverGame,), {"game_name": name})


_TYPES = {name: _game_type(name, bridge(name)) for name in SPIEL_NAMES}
GAME_CLASSES = {name: _game_class(name) for name in SPIEL_NAMES}
for _name, _cls in GAME_CLASSES.items():
    if SPIEL_NAMES[_name] not in pyspiel.registered_names():
        pyspiel.register_game(_TYPES[_name], _cls)
