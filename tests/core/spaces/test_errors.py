"""Bad input gives errors that name the space and the problem."""

import numpy as np
import pytest

import palaestra.spaces as ps
from palaestra.error import Error, InvalidSeed


def test_box_rejects_inverted_bounds():
    with pytest.raises(ValueError, match="low values must be less than or equal to high"):
        ps.Box(1.0, 0.0)


def test_box_rejects_nan_and_bad_dtype_and_shape():
    with pytest.raises(ValueError, match="np.nan"):
        ps.Box(np.nan, 1.0)
    with pytest.raises(ValueError, match="Invalid Box dtype"):
        ps.Box(0, 1, dtype=np.complex64)
    with pytest.raises(ValueError, match="shape doesn't match"):
        ps.Box(np.zeros(3, np.float32), np.ones(3, np.float32), shape=(2,))
    with pytest.raises(ValueError, match="unsigned int dtype don't support"):
        ps.Box(-np.inf, 0, (2,), np.uint8)
    with pytest.raises(ValueError, match="out of bounds of the dtype range"):
        ps.Box(-1, 300, (1,), np.uint8)
    with pytest.raises(TypeError, match="shape to be an iterable"):
        ps.Box(0, 1, shape=3)


def test_box_scalar_bounds_have_shape_one():
    assert ps.Box(0.0, 1.0).shape == (1,)
    assert ps.Box(-1, 1, (2, 3)).low.shape == (2, 3)


def test_box_sample_refuses_masks():
    with pytest.raises(Error, match="Box.sample cannot be provided a mask"):
        ps.Box(0, 1).sample(mask=np.array([1]))


@pytest.mark.parametrize(
    ("mask", "exc", "text"),
    [
        ([1, 0, 1], TypeError, "^The expected type of the sample mask is np.ndarray"),
        (np.array([1, 0, 1], dtype=np.int64), TypeError, "^The expected dtype of the sample mask is np.int8"),
        (np.array([1, 0], dtype=np.int8), ValueError, r"^The expected shape of the sample mask is \(3,\)"),
        (np.array([1, 0, 3], dtype=np.int8), ValueError, "^All values of the sample mask should be 0 or 1"),
    ],
)
def test_discrete_mask_errors_name_space_and_problem(mask, exc, text):
    with pytest.raises(exc, match=text) as info:
        ps.Discrete(3).sample(mask=mask)
    assert "Discrete(3)" in str(info.value)


def test_probability_errors():
    with pytest.raises(
        ValueError, match="^The sum of the sample probability should be equal to 1.*normalise"
    ):
        ps.Discrete(2).sample(probability=np.array([0.2, 0.2]))
    with pytest.raises(ValueError, match="^All values of the sample probability should be between 0 and 1"):
        ps.Discrete(2).sample(probability=np.array([1.5, -0.5]))
    with pytest.raises(ValueError, match="Only one of `mask` or `probability`"):
        ps.Discrete(2).sample(mask=np.ones(2, np.int8), probability=np.array([0.5, 0.5]))


@pytest.mark.parametrize("seed", [-1, 1.5, np.int64(3), "7"])
def test_bad_seeds_name_the_space(seed):
    space = ps.Discrete(4)
    with pytest.raises(InvalidSeed) as info:
        space.seed(seed)
    assert "Discrete(4)" in str(info.value)


def test_composite_seed_type_errors():
    with pytest.raises(TypeError, match="^Expected seed type: list, tuple, int or None"):
        ps.Tuple([ps.Discrete(2)]).seed("x")
    with pytest.raises(ValueError, match="not identical to space keys"):
        ps.Dict({"a": ps.Discrete(2)}).seed({"b": 1})
    with pytest.raises(ValueError, match="number of subspaces"):
        ps.Tuple([ps.Discrete(2)]).seed([1, 2])


def test_text_all_zero_mask_with_min_length_raises():
    text = ps.Text(3, min_length=1, charset="ab")
    with pytest.raises(
        ValueError, match="^Trying to sample with a minimum length > 0.*allow at least one character"
    ):
        text.sample(mask=(None, np.zeros(2, np.int8)))
    assert ps.Text(3, min_length=0, charset="ab").sample(mask=(None, np.zeros(2, np.int8))) == ""


def test_constructor_validation_messages():
    with pytest.raises(ValueError, match="n \\(counts\\) have to be positive"):
        ps.Discrete(0)
    with pytest.raises(TypeError, match="Expects `n` to be an integer"):
        ps.Discrete(2.0)
    with pytest.raises(ValueError, match="nvec \\(counts\\) have to be positive"):
        ps.MultiDiscrete([2, 0])
    with pytest.raises(
        ValueError, match="^The min_length must be less than or equal to the max_length, min_length: 3"
    ):
        ps.Text(2, min_length=3)
    with pytest.raises(ValueError, match="Empty `OneOf`"):
        ps.OneOf([])
    # Gymnasium's words alone in the message (its tests compare them); the advice on the cause.
    with pytest.raises(
        TypeError, match=r"^3 does not inherit from `gymnasium.Space`. Actual Type: <class 'int'>$"
    ) as raised:
        ps.Tuple([ps.Discrete(2), 3])
    assert (
        raised.value.__cause__.__notes__[0] == "Tuple sub-spaces must inherit from `palaestra.spaces.Space`."
    )
    with pytest.raises(
        TypeError, match=r"^x does not inherit from `gymnasium.Space`. Actual Type: <class 'str'>$"
    ):
        ps.OneOf([ps.Discrete(2), "x"])
    with pytest.raises(TypeError, match=r"^Dict space element is not an instance of Space: key='b', space=1"):
        ps.Dict({"a": ps.Discrete(2), "b": 1})
    with pytest.raises(
        TypeError, match=r"^Trying to set c to Dict space with value that is not a gymnasium space"
    ):
        ps.Dict({"a": ps.Discrete(2)})["c"] = None


def test_discrete_all_zero_mask_returns_start_without_drawing():
    space = ps.Discrete(3, start=5, seed=0)
    before = space.np_random.bit_generator.state
    assert space.sample(mask=np.zeros(3, np.int8)) == 5
    assert space.np_random.bit_generator.state == before
