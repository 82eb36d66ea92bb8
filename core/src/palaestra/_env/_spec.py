"""EnvSpec and WrapperSpec: serialisable descriptions of how to build an env."""

from __future__ import annotations

import dataclasses
import numbers
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from palaestra._base._ids import parse_env_id
from palaestra._base._wrapper_spec import WrapperSpec
from palaestra._env._trust import refuse_untrusted_entry_points
from palaestra.error import RegistrationError

if TYPE_CHECKING:
    from palaestra._env._core import Env

__all__ = ["REGISTRATION_FIELDS", "EnvSpec", "WrapperSpec", "replaced"]


@dataclass
class EnvSpec:
    """Everything ``make`` needs to build an environment: a dataclass, as Gymnasium's is.

    Attributes:
        id: ``[namespace/]name[-vN]``.
        entry_point: ``"module:Class"`` or a callable returning the env.
        reward_threshold: Return at which the task counts as solved.
        nondeterministic: Whether equal seeds and actions can still diverge.
        max_episode_steps: Steps before truncation (adds ``TimeLimit``).
        order_enforce: Whether to add ``OrderEnforcing``.
        disable_env_checker: Whether to skip ``PassiveEnvChecker``.
        kwargs: Constructor arguments.
        namespace: Parsed from ``id``.
        name: Parsed from ``id``.
        version: Parsed from ``id``.
        additional_wrappers: Wrappers applied on top, innermost first.
        vector_entry_point: ``"module:Class"`` of a natively batched version.
        apply_api_compatibility: The entry point builds a Gym 0.21-API env; ``make`` wraps it
            in :class:`palaestra.wrappers.compatibility.EnvCompatibility`.
    """

    # The fields, in Gymnasium 1.4.0's order (its repr, equality and to_json), written once.
    id: str
    entry_point: Any = None
    reward_threshold: float | None = None
    nondeterministic: bool = False
    max_episode_steps: int | None = None
    order_enforce: bool = True
    disable_env_checker: bool = False
    kwargs: dict[str, Any] = field(default_factory=dict)
    namespace: str | None = field(init=False)
    name: str = field(init=False)
    version: int | None = field(init=False)
    additional_wrappers: tuple[WrapperSpec, ...] = field(default_factory=tuple)
    vector_entry_point: Any = None
    apply_api_compatibility: bool = False

    def __post_init__(self) -> None:
        self.namespace, self.name, self.version = parse_env_id(self.id)

    def __replace__(self, **changes: Any) -> EnvSpec:
        """``copy.replace(spec, **changes)`` (Python 3.13), as on every dataclass."""
        return dataclasses.replace(self, **changes)

    def make(self, **kwargs: Any) -> Env[Any, Any]:
        """Build the env this spec describes, with its wrappers: ``palaestra.make(self, **kwargs)``.

        A spec is data; building is the ``make`` pipeline's, two layers up. The spec reaches
        it through the package's public ``make``, looked up when called (the package is
        always imported before this module), so this record imports nothing above it.
        """
        package: Any = sys.modules["palaestra"]
        return package.make(self, **kwargs)  # type: ignore[no-any-return]

    def to_json(self) -> str:
        """Serialise to JSON.

        Raises:
            ValueError: A field holds a callable, which JSON cannot represent.
        """
        data = dataclasses.asdict(self)
        for derived in ("namespace", "name", "version"):
            data.pop(derived)
        if not data["apply_api_compatibility"]:
            del data["apply_api_compatibility"]  # keeps the JSON identical to Gymnasium's
        for key, value in data.items():
            if callable(value):
                raise ValueError(
                    f"Callable found in {self.id} for {key} attribute with value={value}. "
                    "Register a 'module:attr' string instead to serialise the spec."
                )
        import json  # start-up: most processes never serialise a spec (2.4 ms)

        return json.dumps(data)

    def check(self, entry_points: bool = True) -> EnvSpec:
        """This spec, after checking the fields ``make`` relies on; ``register`` and ``from_json`` call it.

        An entry point is a ``"module:attr"`` string, a callable or None; ``kwargs`` a dict
        with string keys; ``max_episode_steps`` None or a positive int; ``reward_threshold`` None
        or a real number; ``additional_wrappers`` a tuple of :class:`WrapperSpec`. A spec built
        by hand is not checked (as in Gymnasium) until it is made.

        Args:
            entry_points: Check the entry points' form too. ``register`` does not: as in
                Gymnasium, any entry point registers (tests register placeholders) and ``make``
                refuses one that is not ``"module:attr"``, in Gymnasium's words.

        Raises:
            RegistrationError: A field that ``make`` would fail on, named with what it takes.
        """

        def refuse(name: str, value: Any, wanted: str) -> RegistrationError:
            return RegistrationError(f"{self.id}: {name} must be {wanted}, got {value!r:.80}")

        for which in ("entry_point", "vector_entry_point") if entry_points else ():
            value = getattr(self, which)
            if value is None or callable(value):
                continue
            module, colon, attribute = value.partition(":") if isinstance(value, str) else ("", "", "")
            if not (module and colon and attribute) or ":" in attribute:
                raise refuse(
                    which, value, "a 'module:attribute' string (such as 'my_pkg.envs:MyEnv') or a callable"
                )
        threshold = self.reward_threshold
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, numbers.Real)):
            raise refuse(
                "reward_threshold", threshold, "a real number (the return that counts as solved) or None"
            )
        if not isinstance(self.kwargs, dict) or not all(isinstance(key, str) for key in self.kwargs):
            raise refuse("kwargs", self.kwargs, "a dict of the env's keyword arguments")
        steps = self.max_episode_steps
        if steps is not None and (not isinstance(steps, int) or isinstance(steps, bool) or steps <= 0):
            raise refuse("max_episode_steps", steps, "a positive int (steps before truncation) or None")
        wrappers = self.additional_wrappers
        if not isinstance(wrappers, tuple) or not all(isinstance(w, WrapperSpec) for w in wrappers):
            raise refuse("additional_wrappers", wrappers, "a tuple of WrapperSpec")
        return self

    @staticmethod
    def from_json(json_env_spec: str, allow_import: bool = True) -> EnvSpec:
        """Rebuild a spec from :meth:`to_json` output.

        A spec names modules that ``make`` imports and callables it calls, so JSON from
        someone you do not trust can run any code. Pass ``allow_import=False`` to accept
        only entry points inside installed palaestra plugins (and wrappers from
        ``palaestra.wrappers``); the check reads installed metadata and imports nothing.

        Args:
            json_env_spec: The JSON text.
            allow_import: Accept any ``module:attr`` entry point (Gymnasium's behaviour).

        Raises:
            RegistrationError: The JSON does not describe a valid spec (a ``ValueError``).
            ValueError: With ``allow_import=False``, it names an entry point outside installed
                plugins.
        """
        import json  # start-up: most processes never serialise a spec (2.4 ms)

        try:
            data = json.loads(json_env_spec)
        except RecursionError:
            raise RegistrationError("The spec's JSON is nested too deeply to be an EnvSpec's") from None
        if not isinstance(data, dict):
            raise RegistrationError(
                f"An issue occurred when trying to make {data!r:.80} an EnvSpec: the JSON must be an "
                "object of the spec's fields (as EnvSpec.to_json writes it)"
            )
        listed = data.pop("additional_wrappers", [])
        if not isinstance(listed, list):
            raise RegistrationError(
                f"An issue occurred when trying to make {listed!r:.80} the additional_wrappers: the JSON "
                "must hold a list of wrapper specs there"
            )
        wrappers = []
        for wrapper in listed:
            try:
                wrappers.append(WrapperSpec(**wrapper))
            except TypeError as e:
                raise RegistrationError(
                    f"An issue occurred when trying to make {wrapper} a WrapperSpec"
                ) from e
        try:
            spec = EnvSpec(**data)
        except Exception as e:
            raise RegistrationError(f"An issue occurred when trying to make {data} an EnvSpec") from e
        spec.additional_wrappers = tuple(wrappers)
        spec.check()
        if not allow_import:
            refuse_untrusted_entry_points(
                spec.id, spec.entry_point, spec.vector_entry_point, spec.additional_wrappers
            )
        return spec

    def pprint(
        self, disable_print: bool = False, include_entry_points: bool = False, print_all: bool = False
    ) -> str | None:
        """Print (or return) the fields that differ from their defaults.

        Args:
            disable_print: Return the text instead of printing it.
            include_entry_points: Include entry points.
            print_all: Include every field.
        """
        lines = [f"id={self.id}"]
        if print_all or include_entry_points:
            lines.append(f"entry_point={self.entry_point}")
        for name in (
            "reward_threshold",
            "nondeterministic",
            "max_episode_steps",
            "order_enforce",
            "disable_env_checker",
        ):
            value, default = getattr(self, name), getattr(EnvSpec, name)
            if print_all or value is not default:
                lines.append(f"{name}={value}")
        if self.apply_api_compatibility:
            lines.append("apply_api_compatibility=True")
        if print_all or self.additional_wrappers:
            lines.append(self._wrappers_text(include_entry_points))
        output = "\n".join(lines)
        if disable_print:
            return output
        print(output)
        return None

    def _wrappers_text(self, include_entry_points: bool) -> str:
        if not self.additional_wrappers:
            return "additional_wrappers=[]"
        items = []
        for w in self.additional_wrappers:
            entry = f", entry_point={w.entry_point}" if include_entry_points else ""
            items.append(f"\n\tname={w.name}{entry}, kwargs={w.kwargs}")
        return f"additional_wrappers=[{','.join(items)}\n]"


def replaced(spec: EnvSpec, **changes: Any) -> EnvSpec:
    """``dataclasses.replace(spec, **changes)``."""
    return dataclasses.replace(spec, **changes)


#: The fields a registration may set besides the id and entry point, in EnvSpec's order.
REGISTRATION_FIELDS = tuple(name for name in EnvSpec.__match_args__ if name not in ("id", "entry_point"))
