"""The engine's own CreateBody and CreateFixture under the binding's Python methods: the same bodies."""

import importlib

import pytest

from palaestra_box2d import _engine
from palaestra_box2d._engine import Box2D, create_body, create_fixture


def built(make_body, make_fixture):
    """A world with three static edges and a dynamic box, built by the given calls."""
    world = Box2D.b2World()
    ground = Box2D.b2BodyDef(type=Box2D.b2_staticBody)
    edge = Box2D.b2FixtureDef(shape=Box2D.b2EdgeShape(vertices=[(0, 0), (1, 0)]), friction=2.5)
    for x in range(3):
        edge.shape.vertices = [(x, 0), (x + 1, 0.1 * x)]
        make_fixture(make_body(world, ground), edge)
    box = Box2D.b2BodyDef(type=Box2D.b2_dynamicBody, position=(1.5, 2), angle=0.3)
    make_fixture(
        make_body(world, box), Box2D.b2FixtureDef(shape=Box2D.b2PolygonShape(box=(0.5, 0.2)), density=3)
    )
    for _ in range(60):
        world.Step(1 / 50, 6, 2)
    return world


def test_the_engine_calls_build_the_bodies_the_public_methods_build():
    def public_body(world, definition):
        return world.CreateBody(definition)

    def public_fixture(body, definition):
        return body.CreateFixture(definition)

    mine, theirs = built(create_body, create_fixture), built(public_body, public_fixture)
    assert create_body is not Box2D.b2World.CreateBody  # this binding has the engine calls
    for body, twin in zip(mine.bodies, theirs.bodies, strict=True):
        assert (body.type, body.mass, tuple(body.position), body.angle) == (
            twin.type,
            twin.mass,
            tuple(twin.position),
            twin.angle,
        )
        assert [f.friction for f in body.fixtures] == [f.friction for f in twin.fixtures]


def test_a_binding_without_them_gets_its_public_methods(monkeypatch):
    monkeypatch.delattr(Box2D.b2World, "_b2World__CreateBody")
    monkeypatch.delattr(Box2D.b2Body, "_b2Body__CreateFixture")
    try:
        reloaded = importlib.reload(_engine)
        assert reloaded.create_body is Box2D.b2World.CreateBody
        assert reloaded.create_fixture is Box2D.b2Body.CreateFixture
    finally:
        monkeypatch.undo()
        importlib.reload(_engine)
    assert _engine.create_body is not Box2D.b2World.CreateBody


@pytest.mark.parametrize(("env_id", "wrapped"), [("BipedalWalker-v3", 10), ("LunarLander-v3", 0)])
def test_the_envs_terrain_is_built_by_the_engine_calls(env_id, wrapped, monkeypatch):
    """Only bodies built from keyword forms take the wrappers: the walker's hull and legs, a body and a fixture each."""
    import palaestra

    env = palaestra.make(env_id)
    calls = []
    for owner, name in ((Box2D.b2World, "CreateBody"), (Box2D.b2Body, "CreateFixture")):
        original = getattr(owner, name)
        monkeypatch.setattr(
            owner, name, lambda *a, original=original, **k: calls.append(1) or original(*a, **k)
        )
    env.reset(seed=0)
    assert len(calls) == wrapped
    env.close()
