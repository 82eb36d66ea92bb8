"""Bad arguments to make, make_vec, register and EnvSpec.from_json get named errors.

Each names the argument and what it takes; where Gymnasium has words for it, they come first
and its exception class is among ours.
"""

import numpy as np
import pytest

import palaestra
from palaestra import EnvSpec
from palaestra.error import Error, InvalidEnvArguments, InvalidEnvId, RegistrationError

pytestmark = pytest.mark.needs_plugins

STEPS_TYPE = r"Expect the `max_episode_steps` to be an integer, actually: <class 'str'>\. Pass a positive int"
STEPS_VALUE = r"Expect the `max_episode_steps` to be positive, actually: 0\. Pass a positive int"

BAD_CALLS = {
    "make max_episode_steps=0": (
        lambda: palaestra.make("CartPole-v1", max_episode_steps=0),
        ValueError,
        STEPS_VALUE,
    ),
    "make max_episode_steps='abc'": (
        lambda: palaestra.make("CartPole-v1", max_episode_steps="abc"),
        TypeError,
        STEPS_TYPE,
    ),
    "batched max_episode_steps='abc'": (
        lambda: palaestra.make_vec("CartPole-v1", 2, max_episode_steps="abc"),
        TypeError,
        STEPS_TYPE,
    ),
    "batched max_episode_steps=0": (
        lambda: palaestra.make_vec("Pendulum-v1", 2, max_episode_steps=0),
        ValueError,
        STEPS_VALUE,
    ),
    "num_envs=0": (
        lambda: palaestra.make_vec("CartPole-v1", 0),
        ValueError,
        r"num_envs must be a positive integer, got 0; pass how many sub-envs",
    ),
    "num_envs='2'": (
        lambda: palaestra.make_vec("CartPole-v1", "2", vectorization_mode="sync"),
        TypeError,
        r"num_envs must be a positive integer, got '2'",
    ),
    "num_envs=2**62 batched": (
        lambda: palaestra.make_vec("CartPole-v1", 2**62),
        ValueError,
        r"num_envs=4,611,686,018,427,387,904 is too many for CartPole-v1: its batched arrays do not fit",
    ),
    "num_envs=2**62 sync": (
        lambda: palaestra.make_vec("CartPole-v1", 2**62, vectorization_mode="sync"),
        ValueError,
        r"a sync vector env holds one Python env per sub-env \(at most 1,048,576\)\. Pass fewer",
    ),
    "vector_kwargs=5": (
        lambda: palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync", vector_kwargs=5),
        TypeError,
        r"vector_kwargs=\.\.\.\) takes a dict of the vectorizer's keyword arguments .* got 5",
    ),
    "wrappers=[5]": (
        lambda: palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync", wrappers=[5]),
        TypeError,
        r"wrappers=\.\.\.\) holds 5, which is neither a callable taking an env",
    ),
    "wrappers=5": (
        lambda: palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync", wrappers=5),
        TypeError,
        r"wrappers=\.\.\.\) takes a list of wrappers",
    ),
    "async step_timeout='x'": (
        lambda: palaestra.make_vec(
            "CartPole-v1", 2, vectorization_mode="async", vector_kwargs={"step_timeout": "x"}
        ),
        TypeError,
        r"step_timeout must be a positive number of seconds or None .* got 'x'",
    ),
    "sync copy='maybe'": (
        lambda: palaestra.make_vec(
            "CartPole-v1", 2, vectorization_mode="sync", vector_kwargs={"copy": "maybe"}
        ),
        TypeError,
        r"copy must be True or False \(return copies of the batched observations.*got 'maybe'",
    ),
    "async copy='maybe'": (
        lambda: palaestra.make_vec(
            "CartPole-v1", 2, vectorization_mode="async", vector_kwargs={"copy": "maybe"}
        ),
        TypeError,
        r"copy must be True or False",
    ),
    "register(5)": (
        lambda: palaestra.register(5, entry_point="x:Y"),
        TypeError,
        r"Environment id must be a string of the form \[namespace/\]\(env-name\)-v\(version\), got 5 \(int\)",
    ),
    "register kwargs=5": (
        lambda: palaestra.register("BadD-v0", entry_point="x:Y", kwargs=5),
        ValueError,
        r"BadD-v0: kwargs must be a dict of the env's keyword arguments, got 5",
    ),
    "register max_episode_steps=-1": (
        lambda: palaestra.register("BadE-v0", entry_point="x:Y", max_episode_steps=-1),
        ValueError,
        r"max_episode_steps must be a positive int \(steps before truncation\) or None, got -1",
    ),
    "register reward_threshold=1j": (
        lambda: palaestra.register("BadF-v0", entry_point="x:Y", reward_threshold=1j),
        ValueError,
        r"BadF-v0: reward_threshold must be a real number \(the return that counts as solved\) or None, got 1j",
    ),
    "register a misspelt field": (
        lambda: palaestra.register("BadG-v0", entry_point="x:Y", max_episode_step=5),
        TypeError,
        r"^register\(\) got an unexpected keyword argument 'max_episode_step'\nDid you mean 'max_episode_steps'\? "
        r"register\(\) takes: additional_wrappers, .*vector_entry_point\.",
    ),
}


@pytest.mark.parametrize(("call", "builtin", "words"), BAD_CALLS.values(), ids=BAD_CALLS)
def test_bad_arguments_get_named_errors(call, builtin, words):
    with pytest.raises(Error, match=words) as raised:
        call()
    assert isinstance(raised.value, builtin)  # the class Gymnasium (or Python) raises is kept


def test_nothing_bad_stays_registered():
    for env_id in ("BadD-v0", "BadE-v0", "BadF-v0"):
        assert env_id not in palaestra.registry


@pytest.mark.parametrize(
    ("entry_point", "error", "words"),
    [
        ("nocolon", ValueError, "not enough values to unpack (expected 2, got 1)"),
        ("a:b:c", ValueError, "too many values to unpack (expected 2)"),
        (5, AttributeError, "'int' object has no attribute 'split'"),
    ],
)
def test_any_entry_point_registers_and_make_refuses_it_in_gymnasiums_words(entry_point, error, words):
    """Gymnasium's own tests register placeholders; make fails with its error, our advice in a note."""
    palaestra.register("Placeholder-v0", entry_point=entry_point)
    try:
        with pytest.raises(error) as raised:
            palaestra.make("Placeholder-v0")
        assert str(raised.value) == words
        assert "'module.path:AttributeName'" in raised.value.__notes__[-1]
    finally:
        del palaestra.registry["Placeholder-v0"]


def test_minus_one_removes_a_batched_envs_limit_as_it_does_makes():
    envs = palaestra.make_vec("CartPole-v1", 2, max_episode_steps=-1)
    try:
        envs.reset(seed=0)
        for _ in range(600):  # past v1's 500 steps, nothing is truncated
            assert not envs.step(np.zeros(2, dtype=np.int64))[3].any()
            envs.unwrapped.state[:] = 0.0  # keep the poles up, so nothing terminates either
    finally:
        envs.close()


def test_numpy_integers_count_as_num_envs_as_in_gymnasium():
    for mode in ("sync", "vector_entry_point"):
        envs = palaestra.make_vec("CartPole-v1", np.int64(2), vectorization_mode=mode)
        try:
            assert envs.num_envs == 2 and type(envs.num_envs) is int
            assert envs.reset(seed=0)[0].shape == (2, 4)
        finally:
            envs.close()


def test_a_wait_timeout_that_is_not_a_number_is_named():
    envs = palaestra.make_vec("CartPole-v1", 2, vectorization_mode="async")
    try:
        envs.reset_async(seed=0)
        with pytest.raises(InvalidEnvArguments, match=r"timeout must be a positive number of seconds"):
            envs.reset_wait(timeout="soon")
        envs.reset_wait()  # the call is still pending, and completes
    finally:
        envs.close()


BAD_JSON = {
    "a list": ("[]", r"make \[\] an EnvSpec: the JSON must be an object of the spec's fields"),
    "null": ("null", r"make None an EnvSpec"),
    "a number": ("5", r"make 5 an EnvSpec"),
    "wrappers not a list": (
        '{"id": "X-v0", "entry_point": "a:b", "additional_wrappers": 5}',
        r"make 5 the additional_wrappers: the JSON must hold a list of wrapper specs",
    ),
    "nested deeply": ("[" * 100_000 + "]" * 100_000, r"nested too deeply"),
    "steps a string": (
        '{"id": "X-v0", "entry_point": "a:b", "max_episode_steps": "abc"}',
        r"X-v0: max_episode_steps must be a positive int .* got 'abc'",
    ),
    "steps negative": ('{"id": "X-v0", "entry_point": "a:b", "max_episode_steps": -5}', r"got -5"),
    "steps NaN": ('{"id": "X-v0", "entry_point": "a:b", "max_episode_steps": NaN}', r"got nan"),
    "entry point a number": ('{"id": "X-v0", "entry_point": 5}', r"entry_point must be a 'module:attribute'"),
    "kwargs a list": ('{"id": "X-v0", "entry_point": "a:b", "kwargs": []}', r"kwargs must be a dict"),
    "id a number": ('{"id": 5, "entry_point": "a:b"}', r"make \{'id': 5, 'entry_point': 'a:b'\} an EnvSpec"),
}


@pytest.mark.parametrize(("text", "words"), BAD_JSON.values(), ids=BAD_JSON)
def test_from_json_raises_the_value_error_its_docstring_promises(text, words):
    with pytest.raises(RegistrationError, match=words) as raised:
        EnvSpec.from_json(text)
    assert isinstance(raised.value, ValueError)


def test_a_spec_read_back_from_json_still_equals_the_original():
    spec = palaestra.spec("CartPole-v1")
    assert EnvSpec.from_json(spec.to_json()) == spec


def test_an_id_that_is_not_a_string_is_named_by_every_lookup():
    with pytest.raises(InvalidEnvId, match="expected string or bytes-like object, got .int.; pass an env id"):
        palaestra.spec(5)
