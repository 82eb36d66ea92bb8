"""The base class of all spaces."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

import numpy as np

from palaestra._base import _seeding as seeding
from palaestra._base._notes import noted
from palaestra.error import Error, InvalidSeed, InvalidSpaceArgument

if TYPE_CHECKING:
    import numpy.typing as npt  # annotations only: numpy.typing costs a millisecond to import

__all__ = ["MaskNDArray", "Space", "SpaceSeed"]

T_co = TypeVar("T_co", covariant=True)
#: What a space's ``seed`` argument takes: an int seed, a ready generator, or None.
SpaceSeed: TypeAlias = "int | np.random.Generator | None"
MaskNDArray: TypeAlias = "npt.NDArray[np.int8]"


class Space(Generic[T_co]):
    """A set of values that observations or actions are drawn from.

    Every space owns a seedable generator (``np_random``) for :meth:`sample`, and
    answers membership with :meth:`contains` (``x in space``).

    Args:
        shape: The shape of array-valued elements, or ``None``.
        dtype: The numpy dtype of elements, or ``None``.
        seed: An int seed, or a ready generator to use as is.
    """

    #: Whether :meth:`to_jsonable` writes a batch as columns (one entry per part, as Tuple and
    #: Dict do) rather than as one entry per element; OneOf needs to know which it gets.
    columnar_json: bool = False

    def __init__(
        self,
        shape: Sequence[int] | None = None,
        dtype: npt.DTypeLike | None = None,
        seed: SpaceSeed = None,
    ) -> None:
        self._shape: tuple[int, ...] | None = None if shape is None else tuple(shape)
        self.dtype: np.dtype[Any] | None = None if dtype is None else np.dtype(dtype)
        # A generator is used as is; an int seeds a new one; None waits for the first draw.
        generator = seed if isinstance(seed, np.random.Generator) else None
        self._np_random: np.random.Generator | None = generator
        if seed is not None and generator is None:
            self.seed(seed)

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The shape of elements, ``None`` for spaces without a fixed shape."""
        return self._shape

    @property
    def np_random(self) -> np.random.Generator:
        """The space's generator, seeded from OS entropy on first use."""
        generator = self._np_random
        if generator is None:
            self.seed()
            generator = self._np_random
            if generator is None:  # composite spaces seed only their children
                generator = self._np_random = seeding.np_random()[0]
        return generator

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> T_co:
        """Draw a random element.

        Args:
            mask: Restricts which values may be drawn (space-specific layout).
            probability: Per-value probabilities (space-specific layout).
        """
        raise NotImplementedError

    def seed(self, seed: Any = None) -> Any:
        """Re-seed the space's generator.

        Args:
            seed: A non-negative int, or ``None`` for OS entropy.

        Returns:
            The seed used.

        Raises:
            InvalidSeed: ``seed`` is not a non-negative Python int.
        """
        try:
            self._np_random, used = seeding.np_random(seed)
        except InvalidSeed as e:
            raise InvalidSeed(f"{self!r}.seed(): {e}") from e
        return used

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is an element of the space."""
        raise NotImplementedError

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)

    @property
    def is_np_flattenable(self) -> bool:
        """Whether elements can be flattened into a single numpy array."""
        raise NotImplementedError

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        state = dict(state)
        # Accept pickles from older layouts that stored public names.
        if "shape" in state:
            state["_shape"] = state.pop("shape")
        if "np_random" in state:
            state["_np_random"] = state.pop("np_random")
        self.__dict__.update(state)

    def to_jsonable(self, sample_n: Iterable[Any]) -> Any:
        """Convert a batch of elements to JSON-compatible data."""
        return list(sample_n)

    def from_jsonable(self, sample_n: Any) -> list[Any]:
        """Convert JSON-compatible data back to a list of elements."""
        return list(sample_n)


_Init = TypeVar("_Init", bound=Callable[..., None])


def checked_arguments(takes: str) -> Callable[[_Init], _Init]:
    """Name a space constructor's bad arguments.

    A raw ``TypeError``, ``ValueError`` or ``OverflowError`` the constructor raises (its own
    checks, in Gymnasium's words, or NumPy's) becomes :class:`palaestra.error.InvalidSpaceArgument`
    (a ``TypeError`` and a ``ValueError``) with exactly those words and no note (Gymnasium's
    tests match some whole, and pytest matches notes too); ``takes``, what the constructor
    takes, is a note on its cause, the raw error, which the traceback shows above it.
    palaestra's own errors pass unchanged.
    """

    def decorate(init: _Init) -> _Init:
        @functools.wraps(init)
        def checked(self: Any, *args: Any, **kwargs: Any) -> None:
            try:
                init(self, *args, **kwargs)
            except Error:
                raise
            except (TypeError, ValueError, OverflowError) as e:
                # Gymnasium's words alone, without notes: its tests match them whole (`^...$`,
                # which a note would break). The advice rides on the cause, shown above it.
                raise InvalidSpaceArgument(str(e)) from noted(e, takes)

        return checked  # type: ignore[return-value]

    return decorate


def integral(values: Any, name: str) -> Any:
    """``values`` unless it holds a non-integral number (2.5 must not silently become 2)."""
    array = np.asarray(values)
    if array.dtype.kind == "O":
        if array.size and all(isinstance(v, int) for v in array.ravel()):
            raise ValueError(f"{name} must hold integers that fit in 64 bits, got {values!r:.80}")
        raise TypeError(f"{name} must hold integers, got {values!r:.80}")
    if array.dtype.kind == "f" and not np.array_equal(array, np.round(array)):
        raise ValueError(f"{name} must hold integers, got {values!r:.80}")
    if array.dtype.kind not in "iufb" or array.dtype.kind == "b":
        raise TypeError(f"{name} must hold integers, got {values!r:.80} (dtype {array.dtype})")
    return values


def require_no_mask(space: Space[Any], mask: Any, probability: Any) -> None:
    """Reject ``mask``/``probability`` for spaces that support neither."""
    if mask is not None:
        raise Error(f"{type(space).__name__}.sample cannot be provided a mask, actual value: {mask}")
    if probability is not None:
        raise Error(
            f"{type(space).__name__}.sample cannot be provided a probability mask, "
            f"actual value: {probability}"
        )


def require_spaces(owner: str, members: Iterable[Any], key: Any = None, setting: bool = False) -> None:
    """Raise a TypeError naming the first of ``members`` that is not a :class:`Space`.

    Args:
        owner: The composite space's class name (``"Tuple"``, ``"OneOf"``, ``"Dict"``).
        members: The would-be sub-spaces.
        key: For a Dict, the key of the member.
        setting: For a Dict, whether the member is being set (``space[key] = member``).
    """
    for member in members:
        if isinstance(member, Space):
            continue
        if setting:  # Gymnasium's words first, then ours
            words = (
                f"Trying to set {key} to Dict space with value that is not a gymnasium space, "
                f"actual type: {type(member)}"
            )
        elif owner == "Dict":
            words = f"Dict space element is not an instance of Space: key='{key}', space={member}"
        else:
            words = f"{member} does not inherit from `gymnasium.Space`. Actual Type: {type(member)}"
        error = TypeError(words)
        noted(error, f"{owner} sub-spaces must inherit from `palaestra.spaces.Space`.")
        raise error


def require_one_of(mask: Any, probability: Any) -> None:
    """Reject calls that give both ``mask`` and ``probability``."""
    if mask is not None and probability is not None:
        raise ValueError(
            "Only one of `mask` or `probability` can be provided, actual values: "
            f"mask={mask}, probability={probability}"
        )
