"""BipedalWalker's compiled lidar equals Box2D's own ray casts bit for bit, on every kind of terrain."""

import numpy as np
import pytest

import palaestra
from palaestra_box2d import _lidar
from palaestra_box2d._drawing import OBSTACLE
from palaestra_box2d._walker_scene import TERRAIN_HEIGHT, TERRAIN_STEP

pytestmark = pytest.mark.skipif(
    _lidar.compiled is None, reason="built without a C compiler: Box2D casts the rays"
)


def lines(lidar):
    return [
        (ray.fraction, float(ray.p1[0]), float(ray.p1[1]), float(ray.p2[0]), float(ray.p2[1]))
        for ray in lidar.rays
    ]


@pytest.mark.parametrize("hardcore", [False, True], ids=["grass", "hardcore"])
def test_the_kernel_casts_what_box2d_casts_along_the_whole_terrain(hardcore):
    """The hull carried over every stretch of ground (stumps, stairs and pits too), high and low."""
    env = palaestra.make("BipedalWalker-v3", hardcore=hardcore).unwrapped
    checked = hits = 0
    for seed in range(4):
        env.reset(seed=seed)
        lidar, world = env._lidar, env.world
        for x in np.arange(0.3, 199 * TERRAIN_STEP, 0.37):
            for height in (0.4, 1.1, 2.6, 5.5):
                env.hull.position = (float(x), TERRAIN_HEIGHT + height)
                position = env.hull.position  # float32 values, as the step reads them
                expected = lidar.cast(world, position)
                expected_lines = lines(lidar)
                assert lidar.scan(world, position, drawn=True) == expected, (seed, x, height)
                assert lines(lidar) == expected_lines, (seed, x, height)
                checked += 1
                hits += sum(f < 1.0 for f in expected)
    assert checked > 4000 and hits > checked  # most rays meet the ground


def test_a_walker_on_the_kernel_walks_as_one_on_box2ds_casts():
    fast, plain = palaestra.make("BipedalWalkerHardcore-v3"), palaestra.make("BipedalWalkerHardcore-v3")
    rule = plain.unwrapped._lidar
    rule.scan = lambda world, position, drawn: rule.cast(world, position)  # the plain walker asks Box2D
    fast.reset(seed=3)
    plain.reset(seed=3)
    fast.action_space.seed(0)
    for _ in range(200):
        action = fast.action_space.sample()
        a, b = fast.step(action), plain.step(action)
        assert a[0].tobytes() == b[0].tobytes() and a[1:4] == b[1:4]
        if a[2] or a[3]:
            break


def test_the_kernel_checks_its_buffers():
    lidar = _lidar.Lidar()
    out = np.empty((10, 3))
    edges, polygons = np.zeros((2, 4), np.float32), np.zeros((0, 8, 4), np.float32)
    reach = np.zeros(2, np.float32)
    counts, spans = np.zeros(0, np.intc), np.zeros((0, 2), np.float32)
    with pytest.raises(TypeError, match="directions must hold 20 items of format 'd'"):
        _lidar.compiled.walker_lidar(0.0, 0.0, np.zeros(3), edges, reach, polygons, counts, spans, out)
    with pytest.raises(TypeError, match="edges must hold a multiple of 4 items of format 'f'"):
        _lidar.compiled.walker_lidar(
            0.0, 0.0, lidar._directions, np.zeros(3, np.float32), reach, polygons, counts, spans, out
        )
    with pytest.raises(TypeError, match="reach must hold 2 items of format 'f'"):
        _lidar.compiled.walker_lidar(
            0.0, 0.0, lidar._directions, edges, reach[:1], polygons, counts, spans, out
        )
    with pytest.raises(TypeError, match="out must hold 30 items of format 'd'"):
        _lidar.compiled.walker_lidar(
            0.0, 0.0, lidar._directions, edges, reach, polygons, counts, spans, np.empty(3)
        )
    with pytest.raises(TypeError, match="takes 9 arguments, got 8"):
        _lidar.compiled.walker_lidar(0.0, 0.0, lidar._directions, edges, polygons, counts, spans, out)


def test_the_kernel_finds_the_nearest_hit_whatever_order_the_ground_comes_in():
    """Edges given out of order (the kernel orders them and bisects) still give Box2D's casts."""
    env = palaestra.make("BipedalWalkerHardcore-v3").unwrapped
    env.reset(seed=5)
    lidar, world = env._lidar, env.world
    edges = [(*poly[0], *poly[1]) for poly in env.terrain_poly]
    shuffled = [edges[i] for i in np.random.default_rng(0).permutation(len(edges))]
    blocks = [body for body in env.terrain if body.color1 is OBSTACLE]
    lidar.set_ground(shuffled, blocks)
    for x in np.arange(0.3, 199 * TERRAIN_STEP, 1.3):
        env.hull.position = (float(x), TERRAIN_HEIGHT + 1.1)
        position = env.hull.position
        assert lidar.scan(world, position, drawn=False) == lidar.cast(world, position), x
