"""Errors Gymnasium 1.4.0 raises as AssertionError are catchable as AssertionError here too.

Each case runs in both libraries; palaestra's error must be an instance of every builtin
class Gymnasium's is (AssertionError, ValueError, TypeError), keeping its own type as well.
"""

import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra import spaces
from palaestra.error import EnvCheckError, InvalidSampleArgument, InvalidVectorInfo
from palaestra.utils import passive_env_checker
from palaestra.wrappers.vector import DictInfoToList

BUILTIN = (AssertionError, ValueError, TypeError)


def sample_cases(S):
    i8 = np.int8
    return [
        ("Discrete mask list", lambda: S.Discrete(3).sample(mask=[1, 0, 1])),
        ("Discrete mask wrong dtype", lambda: S.Discrete(3).sample(mask=np.array([1, 0, 1], dtype=np.int32))),
        ("Discrete mask wrong shape", lambda: S.Discrete(3).sample(mask=np.array([1, 0], dtype=i8))),
        ("Discrete mask bad values", lambda: S.Discrete(3).sample(mask=np.array([1, 0, 2], dtype=i8))),
        ("Discrete prob list", lambda: S.Discrete(3).sample(probability=[0.5, 0.5, 0])),
        (
            "Discrete prob dtype",
            lambda: S.Discrete(3).sample(probability=np.array([0.5, 0.5, 0], dtype=np.float32)),
        ),
        ("Discrete prob shape", lambda: S.Discrete(3).sample(probability=np.array([0.5, 0.5]))),
        ("Discrete prob neg", lambda: S.Discrete(3).sample(probability=np.array([1.5, -0.5, 0]))),
        ("Discrete prob sum", lambda: S.Discrete(3).sample(probability=np.array([0.5, 0.2, 0]))),
        (
            "Discrete mask+prob",
            lambda: S.Discrete(3).sample(
                mask=np.array([1, 0, 1], dtype=i8), probability=np.array([0.5, 0.5, 0])
            ),
        ),
        ("MD mask list", lambda: S.MultiDiscrete([2, 3]).sample(mask=[1, 0])),
        ("MD mask wrong len", lambda: S.MultiDiscrete([2, 3]).sample(mask=(np.array([1, 1], dtype=i8),))),
        (
            "MD mask wrong dtype",
            lambda: S.MultiDiscrete([2, 3]).sample(
                mask=(np.array([1, 1], dtype=np.int32), np.array([1, 1, 1], dtype=i8))
            ),
        ),
        (
            "MD mask wrong shape",
            lambda: S.MultiDiscrete([2, 3]).sample(
                mask=(np.array([1, 1], dtype=i8), np.array([1, 1], dtype=i8))
            ),
        ),
        (
            "MD mask bad vals",
            lambda: S.MultiDiscrete([2, 3]).sample(
                mask=(np.array([1, 3], dtype=i8), np.array([1, 1, 1], dtype=i8))
            ),
        ),
        (
            "MD prob sum",
            lambda: S.MultiDiscrete([2, 3]).sample(probability=(np.array([0.5, 0.1]), np.array([1 / 3] * 3))),
        ),
        ("MB mask wrong dtype", lambda: S.MultiBinary(3).sample(mask=np.array([1, 0, 2], dtype=np.int32))),
        ("MB mask wrong shape", lambda: S.MultiBinary(3).sample(mask=np.array([1, 0], dtype=i8))),
        ("MB mask bad vals", lambda: S.MultiBinary(3).sample(mask=np.array([1, 0, 5], dtype=i8))),
        ("MB prob bad", lambda: S.MultiBinary(3).sample(probability=np.array([1.5, 0, 0]))),
        ("MB prob shape", lambda: S.MultiBinary(3).sample(probability=np.array([0.5, 0]))),
        ("Text mask not tuple", lambda: S.Text(5).sample(mask=np.ones(3, dtype=i8))),
        ("Text mask len neg", lambda: S.Text(5).sample(mask=(-1, None))),
        (
            "Text mask charset dtype",
            lambda: S.Text(5, charset="ab").sample(mask=(None, np.array([1, 1], dtype=np.int32))),
        ),
        (
            "Text mask charset shape",
            lambda: S.Text(5, charset="ab").sample(mask=(None, np.array([1, 1, 1], dtype=i8))),
        ),
        (
            "Text mask charset vals",
            lambda: S.Text(5, charset="ab").sample(mask=(None, np.array([1, 3], dtype=i8))),
        ),
        ("Text mask len too long", lambda: S.Text(5, charset="ab").sample(mask=(9, None))),
        ("Text prob bad", lambda: S.Text(5, charset="ab").sample(probability=(None, np.array([0.5, 0.2])))),
        ("Tuple mask not tuple", lambda: S.Tuple([S.Discrete(2)]).sample(mask=[None])),
        ("Tuple mask wrong len", lambda: S.Tuple([S.Discrete(2)]).sample(mask=(None, None))),
        ("Tuple prob wrong len", lambda: S.Tuple([S.Discrete(2)]).sample(probability=(None, None))),
        ("Dict mask not dict", lambda: S.Dict({"a": S.Discrete(2)}).sample(mask=[None])),
        ("Dict mask wrong keys", lambda: S.Dict({"a": S.Discrete(2)}).sample(mask={"b": None})),
        ("Dict prob wrong keys", lambda: S.Dict({"a": S.Discrete(2)}).sample(probability={"b": None})),
        ("OneOf mask not tuple", lambda: S.OneOf([S.Discrete(2)]).sample(mask=[None])),
        ("OneOf mask wrong len", lambda: S.OneOf([S.Discrete(2)]).sample(mask=(None, None))),
        ("OneOf prob wrong len", lambda: S.OneOf([S.Discrete(2)]).sample(probability=(None, None))),
        ("Seq mask len neg", lambda: S.Sequence(S.Discrete(2)).sample(mask=(-1, None))),
        ("Seq mask len array bad", lambda: S.Sequence(S.Discrete(2)).sample(mask=(np.array([-1, 2]), None))),
        ("Seq mask len array 2d", lambda: S.Sequence(S.Discrete(2)).sample(mask=(np.array([[1, 2]]), None))),
        ("Seq mask len float", lambda: S.Sequence(S.Discrete(2)).sample(mask=(1.5, None))),
        ("Graph neg edges", lambda: S.Graph(S.Discrete(2), S.Discrete(2)).sample(num_edges=-1)),
        ("Graph neg nodes", lambda: S.Graph(S.Discrete(2), S.Discrete(2)).sample(num_nodes=-1)),
        ("Graph 0 nodes", lambda: S.Graph(S.Discrete(2), S.Discrete(2)).sample(num_nodes=0)),
        ("Graph mask not tuple", lambda: S.Graph(S.Discrete(2), S.Discrete(2)).sample(mask=[None])),
        ("Box sample mask", lambda: S.Box(0, 1).sample(mask=np.array([1]))),
    ]


CASES = [name for name, _ in sample_cases(spaces)]


def _raised(call):
    """The exception ``call()`` raises (failing the test if it returns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call()
        except Exception as e:
            return e
    pytest.fail(f"{call} did not raise")


@pytest.mark.parametrize("index", range(len(CASES)), ids=CASES)
def test_bad_sample_arguments_fail_as_gymnasium_fails(index):
    _, theirs = sample_cases(gymnasium.spaces)[index]
    _, ours = sample_cases(spaces)[index]
    expected, got = _raised(theirs), _raised(ours)
    for kind in BUILTIN:
        if isinstance(expected, kind):
            assert isinstance(got, kind), (CASES[index], type(got).__mro__, kind)
    if isinstance(expected, AssertionError):
        assert isinstance(got, InvalidSampleArgument)
    assert str(got)  # a message naming the space and the culprit


def test_dict_info_to_list_length_mismatch_is_an_assertion_error_too():
    envs = palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync")
    wrapper = DictInfoToList(envs)
    with pytest.raises(
        AssertionError, match=r"info\['x'\] has length 3, expected one entry per sub-env \(2\)"
    ):
        wrapper._split({"x": np.zeros(3), "_x": np.ones(3, bool)})
    with pytest.raises(ValueError, match=r"info\['_x'\] has length 1"):
        wrapper._split({"x": np.zeros(2), "_x": np.ones(1, bool)})
    with pytest.raises(TypeError, match="expects the vector env's info to be a dict"):
        wrapper._split([{}, {}])
    with pytest.raises(InvalidVectorInfo):
        wrapper._split([{}, {}])
    envs.close()


def _mutated_spaces(lib):
    box = lib.spaces.Box(0, 1, (2,), np.float32)
    box.low = np.zeros(3, np.float32)  # no longer the space's shape
    discrete = lib.spaces.Discrete(3)
    discrete.n = np.int64(0)
    multi = lib.spaces.MultiDiscrete([2, 3])
    multi.nvec = np.array([2, 0])
    return {"box low": box, "discrete n": discrete, "multi-discrete nvec": multi}


@pytest.mark.parametrize("which", ["box low", "discrete n", "multi-discrete nvec"])
def test_passive_checker_flags_spaces_mutated_into_invalid_shapes(which):
    with pytest.raises(AssertionError):
        gymnasium.utils.passive_env_checker.check_observation_space(_mutated_spaces(gymnasium)[which])
    with pytest.raises(EnvCheckError, match="space"):
        passive_env_checker.check_observation_space(_mutated_spaces(palaestra)[which])


def test_a_box_with_replaced_bounds_names_both_shapes_instead_of_crashing():
    box = _mutated_spaces(palaestra)["box low"]
    with pytest.raises(
        EnvCheckError, match=r"low shape have have different shapes, low shape: \(3,\), box shape: \(2,\)"
    ):
        passive_env_checker.check_action_space(box)


class _Drawn(palaestra.Env):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(self, fps):
        self.metadata = {"render_modes": ["rgb_array"], "render_fps": fps}
        self.render_mode = "rgb_array"
        self.observation_space = spaces.Discrete(2)
        self.action_space = spaces.Discrete(2)

    def render(self):
        return np.zeros((2, 2, 3), np.uint8)


def test_render_fps_must_be_a_positive_number():
    with pytest.warns(
        UserWarning, match=r"render_fps'\]` to be an integer or a float, actual type: <class 'str'>"
    ):
        passive_env_checker.env_render_passive_checker(_Drawn("30"))
    with pytest.raises(EnvCheckError, match="greater than zero, actual value: 0"):
        passive_env_checker.env_render_passive_checker(_Drawn(0))
    with pytest.raises(AssertionError):
        passive_env_checker.env_render_passive_checker(_Drawn(-1.5))
    assert passive_env_checker.env_render_passive_checker(_Drawn(np.float32(12.5))).shape == (2, 2, 3)
