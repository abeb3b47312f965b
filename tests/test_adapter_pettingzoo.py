"""The three games as PettingZoo AEC environments, checked by PettingZoo's own API and seed
tests, and a played game whose rewards are our reference's result."""
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from solver.adapters import pettingzoo as pz  # noqa: E402

ENVS = [(pz.mancala_v0, {}), (pz.mancala_v0, dict(pits=3, stones=2)),
        (pz.funkel_v0, {}), (pz.funkel_v0, dict(players=3, hidden_shafts=True)),
        (pz.tunhell_v0, dict(intro=True)), (pz.tunhell_v0, dict(players=3))]


@pytest.mark.parametrize("module,rules", ENVS)
def test_pettingzoo_api_test(module, rules):
    api_test(module.env(**rules), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("module,rules", ENVS[::2])
def test_pettingzoo_seed_test(module, rules):
    seed_test(lambda: module.env(**rules), num_cycles=50)


@pytest.mark.parametrize("module,rules", ENVS)
def test_a_played_game_ends_with_the_reference_result_as_rewards(module, rules):
    env = module.env(render_mode="ansi", **rules)
    env.reset(seed=7)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=5000):
        obs, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        action = None if termination or truncation else \
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
    raw = env.unwrapped
    assert raw.bridge.is_over(raw.node)
    shares = raw.bridge.shares(raw.node)
    n = len(shares)
    assert [total[a] for a in env.possible_agents] == [n * s - 1 for s in shares]
    assert isinstance(env.render(), str) and env.render()
