"""Declared inputs: what a rule function accepts, with ranges a GM can read.

A rule function's inputs are declared once as :class:`Param` objects (name,
label, unit, allowed range, default, help). The same declaration

* validates calls to the engine (:func:`checked` raises :class:`InputError`
  naming the field and the allowed range), and
* lets the widget layer build the form, its validation messages and defaults
  without any per-calculator UI code.

Values coming from a form arrive as text; :meth:`Param.parse` turns text into a
value or raises :class:`InputError` with a message fit to show next to the field.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, replace
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, cast

__all__ = [
    "NO_DEFAULT",
    "BoolParam",
    "Checked",
    "ChoiceParam",
    "InputError",
    "IntParam",
    "NumberParam",
    "Param",
    "TextParam",
    "checked",
]


class InputError(ValueError):
    """A value outside what the rules allow. ``field`` is the parameter name."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class _NoDefault:
    """The default of a :class:`Param` taking its signature's (see :func:`checked`)."""

    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()


@dataclass(frozen=True)
class Param:
    """Base of all parameter declarations."""

    name: str
    label: str
    _: KW_ONLY
    default: Any = NO_DEFAULT
    help: str = ""
    unit: str = ""

    def check(self, value: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def parse(self, text: Any) -> Any:
        """Turn form input (text or a value) into a checked value."""
        return self.check(text)

    def describe_range(self) -> str:
        return ""


def _fmt(x: float) -> str:
    """Range ends for messages: 1,000,000 rather than 1e+06."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,}"


@dataclass(frozen=True, kw_only=True)
class IntParam(Param):
    """A whole number in ``[minimum, maximum]``."""

    minimum: int = 0
    maximum: int = 10

    def describe_range(self) -> str:
        return f"a whole number from {self.minimum:,} to {self.maximum:,}"

    def _error(self) -> InputError:
        unit = f" {self.unit}" if self.unit else ""
        return InputError(self.name, f"{self.label} must be {self.describe_range()}{unit}.")

    def check(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise self._error()
        if not self.minimum <= value <= self.maximum:
            raise self._error()
        return value

    def parse(self, text: Any) -> int:
        if isinstance(text, str):
            s = text.strip().replace("\u202f", "").replace(",", "")
            if not s:
                raise InputError(
                    self.name, f"{self.label} is empty: enter {self.describe_range()}."
                )
            try:
                value = int(s)
            except ValueError:
                try:
                    f = float(s)
                except ValueError:
                    raise self._error() from None
                if not f.is_integer():
                    raise self._error() from None
                value = int(f)
            return self.check(value)
        return self.check(text)


@dataclass(frozen=True, kw_only=True)
class NumberParam(Param):
    """A real number in ``[minimum, maximum]`` (kilograms, metres …)."""

    minimum: float = 0.0
    maximum: float = 1e12

    def describe_range(self) -> str:
        return f"a number from {_fmt(self.minimum)} to {_fmt(self.maximum)}"

    def _error(self) -> InputError:
        unit = f" {self.unit}" if self.unit else ""
        return InputError(self.name, f"{self.label} must be {self.describe_range()}{unit}.")

    def check(self, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._error()
        number = float(value)
        if number != number or not self.minimum <= number <= self.maximum:  # NaN fails too
            raise self._error()
        return number

    def parse(self, text: Any) -> float:
        if isinstance(text, str):
            s = text.strip().replace("\u202f", "").replace(",", "")
            if not s:
                raise InputError(
                    self.name, f"{self.label} is empty: enter {self.describe_range()}."
                )
            try:
                value = float(s)
            except ValueError:
                raise self._error() from None
            return self.check(value)
        return self.check(text)


@dataclass(frozen=True, kw_only=True)
class BoolParam(Param):
    """A yes/no switch."""

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise InputError(self.name, f"{self.label} must be yes or no.")
        return value


@dataclass(frozen=True, kw_only=True)
class ChoiceParam(Param):
    """One of a fixed set of options: ``choices`` is ((value, label), ...)."""

    choices: tuple[tuple[str, str], ...] = ()

    def describe_range(self) -> str:
        return "one of " + ", ".join(label for _, label in self.choices)

    def check(self, value: object) -> str:
        # (membership first: an unhashable value raises TypeError, as it always has)
        if value not in {v for v, _ in self.choices} or not isinstance(value, str):
            raise InputError(self.name, f"{self.label} must be {self.describe_range()}.")
        return value


@dataclass(frozen=True, kw_only=True)
class TextParam(Param):
    """Free text parsed into a value: a list of combatants, a weapon's tags …

    ``parser(text, param)`` returns the parsed value or raises
    :class:`InputError` naming ``param.name`` (say which line or item is wrong).
    ``check`` accepts text only, so every value goes through the parser. The form
    shows a text area when ``multiline``; ``example`` is shown as a placeholder.
    Results must show the *parsed* value, never the typed text.
    """

    parser: Callable[[str, TextParam], Any] = lambda text, param: text
    multiline: bool = False
    example: str = ""
    max_length: int = 5000

    def describe_range(self) -> str:
        return f"e.g. {self.example}" if self.example else "text"

    def check(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise InputError(self.name, f"{self.label} must be text.")
        if len(value) > self.max_length:
            raise InputError(
                self.name, f"{self.label} is too long: at most {self.max_length:,} characters."
            )
        return self.parser(value, self)


P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Checked(Protocol, Generic[P, R_co]):
    """A rule function decorated by :func:`checked`: the same call, plus ``params``
    (the declarations, defaults filled in) and ``unchecked`` (the function itself,
    for values already checked by each ``Param.parse``)."""

    params: tuple[Param, ...]
    __name__: str

    @property
    def unchecked(self) -> Callable[..., R_co]: ...

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...


def checked(*params: Param) -> Callable[[Callable[P, R]], Checked[P, R]]:
    """Declare a rule function's parameters and validate every call against them.

    The declaration is kept on the function as ``fn.params`` (a tuple, in form
    order) so that the widget layer can build a form from it. Parameters of the
    function that are not declared are passed through unchecked.

    A default is written once, in the function's signature: ``fn.params``
    carries it (a declared parameter without a signature default must declare
    its own). Raises :class:`TypeError` at import when a parameter is declared
    that the function does not have, when it has no default anywhere, or when
    both give one (they would drift).
    """

    def deco(fn: Callable[P, R]) -> Checked[P, R]:
        sig = inspect.signature(fn)
        missing = {p.name for p in params} - set(sig.parameters)
        if missing:
            raise TypeError(f"{fn.__name__} declares unknown parameters {sorted(missing)}")
        filled = tuple(_with_default(fn.__name__, p, sig.parameters[p.name]) for p in params)
        by_name = {p.name: p for p in filled}

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> R:
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            for name, value in bound.arguments.items():
                if name in by_name:
                    bound.arguments[name] = by_name[name].check(value)
            return fn(*bound.args, **bound.kwargs)

        setattr(wrapper, "params", filled)  # noqa: B010 - a function has no declared `params`
        setattr(wrapper, "unchecked", fn)  # noqa: B010
        return cast("Checked[P, R]", wrapper)

    return deco


def _with_default(fn_name: str, param: Param, arg: inspect.Parameter) -> Param:
    """``param`` with its default: the signature's, or its own where the signature has none."""
    has_own = param.default is not NO_DEFAULT
    if arg.default is inspect.Parameter.empty:
        if not has_own:
            raise TypeError(f"{fn_name}: {param.name} has no default (give one in the signature)")
        return param
    if has_own:
        raise TypeError(
            f"{fn_name}: {param.name}'s default is written twice (declared "
            f"{param.default!r}, signature {arg.default!r}): keep the signature's"
        )
    return replace(param, default=arg.default)
