"""Where the Box2D binding keeps what the compiled stepping reads and writes, checked once.

``_stepping.c`` steps worlds through Box2D's own exported ``b2World::Step`` and reads and
writes bodies in place, which needs three kinds of facts about the binding's build: the
addresses of the exported functions it calls (:data:`FUNCTIONS`), the offsets of a few fields of ``b2Body``,
``b2Contact`` and ``b2Fixture`` (Box2D 2.3's layout on a 64-bit build), and the order of
``b2ContactListener``'s virtual functions. :func:`stepping` checks each of them against
the binding itself on a probe world (values written through the binding read back at the
offsets; an impulse applied by both ways giving the same bits; the engine's own listener
table in the expected order; a probe's contact seen by the compiled listener) and only
then configures the module. Any mismatch, a probe that raises, or a binding or platform
this was not written for, leaves the compiled stepping off, and the envs step in Python with
the same numbers; :func:`unavailable_reason` says why. Setting :data:`SWITCH` to ``0`` turns it
off on purpose (to compare, or to rule it out). Each kernel is then held to its env's plain
step on probe envs before its first use (:meth:`palaestra_box2d._kernel_block.KernelBlock.verdict`).
"""

from __future__ import annotations

import ctypes
import functools
import os
import struct
import sys
from typing import Any

import numpy as np

from palaestra_box2d._engine import Box2D

__all__ = ["FUNCTIONS", "LAYOUT", "MEMBERS", "SWITCH", "check_layout", "stepping", "unavailable_reason"]

#: The environment variable that turns the compiled stepping off when set to ``0``.
SWITCH = "PALAESTRA_BOX2D_KERNELS"

#: The exported functions the kernels call, by their C++ names (which fix their signatures),
#: in the order ``_stepping.configure`` takes their addresses.
FUNCTIONS = (
    "_ZN7b2World4StepEfii",  # b2World::Step(float, int, int)
    "_ZN7b2World18SetContactListenerEP17b2ContactListener",
    "_ZNK15b2RevoluteJoint13GetJointAngleEv",
    "_ZNK15b2RevoluteJoint13GetJointSpeedEv",
    "_ZN15b2RevoluteJoint13SetMotorSpeedEf",
    "_ZN15b2RevoluteJoint17SetMaxMotorTorqueEf",
)
LISTENER_TABLE = "_ZTV17b2ContactListener"  # b2ContactListener's virtual table
# Its six slots, in the order _stepping.c's listener fills its own table.
LISTENER_SLOTS = (
    "_ZN17b2ContactListenerD1Ev",
    "_ZN17b2ContactListenerD0Ev",
    "_ZN17b2ContactListener12BeginContactEP9b2Contact",
    "_ZN17b2ContactListener10EndContactEP9b2Contact",
    "_ZN17b2ContactListener8PreSolveEP9b2ContactPK10b2Manifold",
    "_ZN17b2ContactListener9PostSolveEP9b2ContactPK16b2ContactImpulse",
)

#: Box2D 2.3's field offsets (bytes) on a 64-bit build, in the order ``_stepping.c`` takes
#: them (``awake flag`` is the bit of ``b2Body::m_flags`` that marks an awake body). Each
#: field's Box2D member is in :data:`MEMBERS`.
LAYOUT = (
    ("body flags", 4),
    ("awake flag", 0x0002),
    ("body position", 12),
    ("body centre of mass", 44),
    ("body angle", 56),
    ("body velocity", 64),
    ("body angular velocity", 72),
    ("body inverse mass", 148),
    ("body inverse inertia", 156),
    ("contact fixture A", 96),
    ("contact fixture B", 104),
    ("fixture body", 16),
)

#: Each :data:`LAYOUT` field's Box2D 2.3 member (``b2Body::m_xf.p`` is the body's origin, its
#: ``m_sweep.c`` and ``m_sweep.a`` the centre of mass and angle the solver integrates).
MEMBERS = {
    "body flags": "b2Body::m_flags (uint16)",
    "awake flag": "b2Body::e_awakeFlag (a bit of m_flags)",
    "body position": "b2Body::m_xf.p (b2Vec2)",
    "body centre of mass": "b2Body::m_sweep.c (b2Vec2)",
    "body angle": "b2Body::m_sweep.a (float)",
    "body velocity": "b2Body::m_linearVelocity (b2Vec2)",
    "body angular velocity": "b2Body::m_angularVelocity (float)",
    "body inverse mass": "b2Body::m_invMass (float)",
    "body inverse inertia": "b2Body::m_invI (float)",
    "contact fixture A": "b2Contact::m_fixtureA (b2Fixture*)",
    "contact fixture B": "b2Contact::m_fixtureB (b2Fixture*)",
    "fixture body": "b2Fixture::m_body (b2Body*)",
}

_module: Any
try:
    from palaestra_box2d import _stepping as _module
except ImportError:  # built without a C compiler: the envs step in Python
    _module = None


def _address(proxy: Any) -> int:
    """The C++ object behind a binding's proxy."""
    return int(proxy.this)


def _floats(address: int, offset: int, count: int) -> tuple[float, ...]:
    return struct.unpack(f"{count}f", ctypes.string_at(address + offset, 4 * count))


def _pointer(address: int, offset: int) -> int:
    return ctypes.c_void_p.from_address(address + offset).value or 0


def _f32(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]  # type: ignore[no-any-return]


def _probe_body(world: Any) -> Any:
    """A dynamic box off its centre (so its centre of mass is not its position), in motion."""
    body = world.CreateDynamicBody(position=(1.25, 2.75), angle=0.375)
    body.CreatePolygonFixture(box=(0.5, 0.25, (0.25, 0.125), 0.0), density=3.0, friction=0.3)
    body.linearVelocity = (0.625, -1.5)
    body.angularVelocity = 2.25
    return body


def check_layout(layout: tuple[tuple[str, int], ...] | None = None) -> str | None:
    """Check ``layout``'s body fields (default: :data:`LAYOUT` as it is now) on a probe; what differs, or None."""
    at = dict(LAYOUT if layout is None else layout)
    flag = at["awake flag"]
    if flag <= 0 or flag & (flag - 1) or flag > 0xFFFF:
        return f"b2Body's awake flag must be one bit of a 16-bit field, not {flag:#x}"
    world = Box2D.b2World(gravity=(0, -10))
    body = _probe_body(world)
    address = _address(body)
    fields = (
        ("body position", 2, tuple(body.position)),
        ("body centre of mass", 2, tuple(body.worldCenter)),
        ("body angle", 1, (body.angle,)),
        ("body velocity", 2, tuple(body.linearVelocity)),
        ("body angular velocity", 1, (body.angularVelocity,)),
        ("body inverse mass", 1, (_f32(1.0 / body.mass),)),
    )
    for name, count, expected in fields:
        if _floats(address, at[name], count) != expected:
            return f"{name} ({MEMBERS[name]}) is not at offset {at[name]} of b2Body"
    flags = ctypes.c_uint16.from_address(address + at["body flags"])
    body.awake = False
    asleep = flags.value & at["awake flag"]
    body.awake = True
    if asleep or not flags.value & at["awake flag"]:
        return (
            f"b2Body's awake flag is not bit {at['awake flag']:#x} of the field at offset {at['body flags']}"
        )
    return None


def _check_impulse(stepping_module: Any) -> str | None:
    """The compiled impulse and the binding's, on twin probes, to the same bits."""
    world = Box2D.b2World(gravity=(0, -10))
    ours, theirs = _probe_body(world), _probe_body(world)
    for impulse, point in (((3.7, -1.3), (1.1, 2.2)), ((-0.003, 2.9e-4), (1.9, 3.4))):
        theirs.ApplyLinearImpulse(impulse, point, True)
        stepping_module.apply_impulse(_address(ours), *impulse, *point)
        if (tuple(ours.linearVelocity), ours.angularVelocity) != (
            tuple(theirs.linearVelocity),
            theirs.angularVelocity,
        ):
            return "an impulse applied through the layout differs from the binding's (b2Body's mass fields)"
    return None


def _check_contacts(
    stepping_module: Any, kernel_type: Any, layout: tuple[tuple[str, int], ...]
) -> str | None:
    """A probe resting on the ground: the contact's fixtures, and the compiled listener's report."""
    at = dict(layout)
    world = Box2D.b2World(gravity=(0, -10))
    ground = world.CreateStaticBody(shapes=Box2D.b2EdgeShape(vertices=[(-20, 0), (20, 0)]))
    body = _probe_body(world)
    for _ in range(120):
        world.Step(1 / 50, 6, 2)
    contacts = [c for c in world.contacts if c.touching]
    if len(contacts) != 1:
        return "the probe did not come to rest on the ground"
    contact = _address(contacts[0])
    fixtures = [_address(contacts[0].fixtureA), _address(contacts[0].fixtureB)]
    if [_pointer(contact, at["contact fixture A"]), _pointer(contact, at["contact fixture B"])] != fixtures:
        return "b2Contact's fixtures are not where the layout says"
    if {_pointer(f, at["fixture body"]) for f in fixtures} != {_address(ground), _address(body)}:
        return "b2Fixture's body is not where the layout says"
    # The compiled listener on a fresh probe that lands: BeginContact must reach it.
    world = Box2D.b2World(gravity=(0, -10))
    world.CreateStaticBody(shapes=Box2D.b2EdgeShape(vertices=[(-20, 0), (20, 0)]))
    body = _probe_body(world)
    kernel = kernel_type(1, (1.0,) * 13, (0.0,) * 12, False)  # never steps: its rules do not matter
    capsule = np.random.default_rng(0).bit_generator.capsule
    hull = (_address(body), 0, 0)
    kernel.attach(0, (world, _address(world), 0), hull, capsule, 0.0, (None, False, False, False, 0, -1))
    for _ in range(120):
        world.Step(1 / 50, 6, 2)
    landed = kernel.detach(0)[1]  # game_over: the probe (as the hull) touched the ground
    if not landed:
        return "the compiled contact listener was not called (b2ContactListener's table)"
    return None


def _find_symbols() -> tuple[dict[str, int], str | None]:
    """The exported functions' addresses and a check of the listener table's order."""
    try:
        library = ctypes.CDLL(Box2D._Box2D.__file__)
        addresses = {
            name: ctypes.cast(getattr(library, name), ctypes.c_void_p).value or 0
            for name in (*FUNCTIONS, *LISTENER_SLOTS)
        }
        table = ctypes.addressof(ctypes.c_void_p.in_dll(library, LISTENER_TABLE))
    except (AttributeError, OSError, ValueError) as e:
        return {}, f"the Box2D binding does not export what the compiled stepping calls ({e})"
    # An Itanium C++ virtual table: offset to top, type info, then the virtual functions.
    slots = [_pointer(table, 16 + 8 * i) for i in range(len(LISTENER_SLOTS))]
    if slots != [addresses[name] for name in LISTENER_SLOTS]:
        return {}, "b2ContactListener's virtual functions are not in the order the compiled listener uses"
    return addresses, None


@functools.cache
def _configure() -> tuple[Any, str | None]:
    if os.environ.get(SWITCH, "").strip() == "0":
        return None, f"turned off by {SWITCH}=0"
    if _module is None:
        return None, "palaestra-box2d was built without its compiled stepping (no C compiler)"
    if sys.maxsize != 2**63 - 1 or sys.byteorder != "little":
        return None, "the compiled stepping knows Box2D's layout on 64-bit little-endian builds only"
    layout = LAYOUT  # read now, once: what is checked is what is configured
    try:
        problem = _probe(_module, layout)
    except Exception as e:  # a probe that fails in a way no check foresaw is a reason too
        problem = f"a probe of the engine raised {type(e).__name__}: {e}"
    if problem is not None:
        _module.configure((0,) * len(FUNCTIONS), tuple(value for _, value in layout))  # off (again)
        return None, problem
    return _module, None


def _probe(module: Any, layout: tuple[tuple[str, int], ...]) -> str | None:
    """Configure ``module`` for ``layout`` once every check of it passed; what failed, or None."""
    addresses, problem = _find_symbols()
    problem = problem or check_layout(layout)
    if problem is not None:
        return problem
    module.configure(tuple(addresses[name] for name in FUNCTIONS), tuple(value for _, value in layout))
    return _check_impulse(module) or _check_contacts(module, module.LanderKernel, layout)


def stepping() -> Any:
    """The configured ``_stepping`` module, or None when the compiled stepping is off."""
    return _configure()[0]


def unavailable_reason() -> str | None:
    """Why the compiled stepping is off, or None when it is on."""
    return _configure()[1]
