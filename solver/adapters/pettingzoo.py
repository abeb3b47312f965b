"""The registry's games as PettingZoo AEC environments: ``mancala_v0``, ``funkel_v0`` and
``tunhell_v0``, each with ``env(**rules)`` (wrapped in PettingZoo's order-enforcing checks) and
``raw_env(**rules)``::

    from solver.adapters.pettingzoo import tunhell_v0
    env = tunhell_v0.env(players=3)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (our seats). Observations are dicts: ``observation``
(a float32 vector of what the agent knows, :meth:`solver.adapters.Bridge.features`) and
``action_mask`` (int8, 1 for legal action ids). Rewards come at the end only: the zero-sum
returns n * share - 1. Chance (Funkel's reveals, Tunhell's deal) is drawn from the generator that
``reset(seed=...)`` seeds, so a seed fixes the game for fixed actions. ``render()`` returns the
game's picture as text (render_mode "ansi") or prints it ("human").
"""
from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from solver import games
from solver.adapters import BRIDGES, bridge, returns_of


class SolverAECEnv(AECEnv):
    """One of our games as an AEC environment (class attribute ``game_name``)."""

    game_name = ""
    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, render_mode=None, **rules):
        super().__init__()
        self.bridge = bridge(self.game_name, **rules)
        self.metadata = {**SolverAECEnv.metadata, "name": f"{self.game_name}_v0"}
        self.render_mode = render_mode
        n = self.bridge.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        size, actions = self.bridge.feature_size(), self.bridge.num_actions()
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.rng = random.Random()
        self.node = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.rng = random.Random(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.node = self.bridge.start()
        self._settle()

    def _settle(self):
        """Play chance until a seat must decide or the game is over; then say whose turn."""
        b = self.bridge
        while b.is_chance(self.node):
            outcomes = b.chance_outcomes(self.node)
            pick = self.rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            self.node = b.apply_chance(self.node, pick, self.rng)
        if b.is_over(self.node):
            for agent, r in zip(self.agents, returns_of(b.shares(self.node))):
                self.rewards[agent] = r
                self.terminations[agent] = True
            return
        self.agent_selection = self.possible_agents[b.current_player(self.node)]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.bridge.num_actions(), np.int8)
        if not self.bridge.is_over(self.node) and agent == self.agent_selection:
            mask[self.bridge.legal_ids(self.node)] = 1
        return {"observation": self.bridge.features(self.node, seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if action not in self.bridge.legal_ids(self.node):
            raise ValueError(f"{agent}: action {action} is not legal here")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.node = self.bridge.apply_id(self.node, int(action))
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.bridge.draw(self.node)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass


def _make(name: str) -> SimpleNamespace:
    raw_cls = type(f"{name.title()}Env", (SolverAECEnv,), {"game_name": name})

    def raw_env(render_mode=None, **rules):
        return raw_cls(render_mode=render_mode, **rules)

    def env(render_mode=None, **rules):
        wrapped = raw_env(render_mode=render_mode, **rules)
        wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
        return wrappers.OrderEnforcingWrapper(wrapped)

    return SimpleNamespace(env=env, raw_env=raw_env, __doc__=f"{name} as an AEC environment")


ENVIRONMENTS = {f"{name}_v0": _make(name) for name in games.GAMES if name in BRIDGES}
globals().update(ENVIRONMENTS)      # mancala_v0, funkel_v0, tunhell_v0, ... one per game
mancala_v0, funkel_v0, tunhell_v0 = (ENVIRONMENTS[f"{n}_v0"] for n in ("mancala", "funkel",
                                                                        "tunhell"))
