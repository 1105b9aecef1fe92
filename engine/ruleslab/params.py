"""Declared inputs: what a rule function accepts, with ranges a GM can read.

A rule function's inputs are declared once as :class:`Param` objects (name,
label, unit, allowed range, default, help). The same declaration

* validates calls to the engine (:func:`checked` raises :class:`InputError`
  naming the field and the allowed range), and
* lets the widget layer build the form, its validation messages and defaults
  without any per-calculator UI code.

Values coming from a form arrive as text; :meth:`Param.parse` turns text into a
value or raises :class:`InputError` with a message fit to show next to the field.

Numbers as typed
----------------
A number field (:class:`IntParam`, :class:`NumberParam`) reads what a GM types
in the form's own notation, and other common notations only where they cannot
be mistaken for it (:func:`read_number`; anything else is refused with the
field's usual message, naming its label and range, never guessed at):

* ASCII digits only (no Arabic-Indic, full-width or superscript digits, no
  ``_``, ``inf`` or ``nan``), at most :data:`MAX_NUMBER_LENGTH` characters; an
  optional sign first: ``+``, ``-`` or the minus sign ``−``.
* Exponent notation, as Python and spreadsheets write a very large or small
  number (``1e3``, ``2.5E-4``, ``1e+16``): digits with at most one ``.``, then
  ``e`` or ``E``, a sign or none and 1 to 3 digits; no thousands separators or
  decimal comma in it. ``1e3`` is 1000, in a whole-number field too.
* ``.`` is always the decimal point, as the form writes it: ``2.004`` is 2.004,
  and in a number field ``1.000`` is 1. It is never a thousands separator,
  so ``1.000,5`` and ``1.000.000`` are refused. A whole-number field takes a
  decimal part only when it is zero (``3.0``) and not exactly three digits
  long: ``1.000`` is 1 or 1000 depending on where the GM learned to write it.
* Thousands separators: ``,``, a space, a no-break space (U+00A0), a narrow
  no-break space (U+202F, what the results print) or a thin space (U+2009),
  one kind per number, only in valid groups: 1 to 3 digits not starting
  with 0, then groups of exactly three (``1,000``, ``12,500.5``, ``1 000``).
* In a number field, ``,`` is a decimal comma where it cannot be a thousands
  separator: ``2,5`` is 2.5 and ``0,125`` is 0.125. One comma before exactly
  three digits, and nothing else (``1,250``), could be either (1250 or 1.25):
  a number field refuses it with a message giving both readings
  (:data:`AMBIGUOUS`); with more groups or a decimal point it is a
  thousands separator (``1,250,000``, ``1,250.5``). A decimal comma may follow
  space-grouped thousands (``12 500,5``) but not comma-grouped ones
  (``1,000,5`` is refused). A whole-number field takes no decimal comma, so
  ``1,250`` is 1250 there and ``1,5`` is refused, never 15; its ``1.000`` (1,
  or 1000 with a thousands point) is refused with both readings.
* :meth:`NumberParam.notation` / :meth:`IntParam.notation` say this in a
  sentence, shown in the field's help.

Reading is one pass over at most :data:`MAX_NUMBER_LENGTH` characters (no
regular expression), so no text can make it slow.

Steppers
--------
The form's −/+ buttons and the Up/Down keys change a number field by its
``step`` (1 for a whole number; a :class:`NumberParam` may declare another):
:meth:`IntParam.stepped` / :meth:`NumberParam.stepped` give the text one step
away, worked exactly on the digits typed (``0.1`` + 1 is ``1.1``), never past
the field's range, or ``None`` when there is no step to take (at the bound
already, or text the field does not read: it stays for the GM to fix). The
form then sets that text as if typed, so it goes through :meth:`Param.parse`.

Fields that apply under one setting only
----------------------------------------
``shown_when=("ruleset", "2.1")`` on a declaration says the field applies only
while the choice field ``ruleset`` holds ``"2.1"``: the form hides it otherwise
(keeping its value) and a shared link leaves it out. The rule function must
not use the field's value then; :class:`ruleslab.declare.Calculator` checks
that the condition names one of its choice fields and one of that field's
values.

Overrides
---------
An override's entered field (``implies=(choice, "entered")``) given without its choice
reads as entered, never as the record's (:meth:`ruleslab.declare.Calculator.implied`).
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, replace
from decimal import Decimal, localcontext
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, cast

from ruleslab.decimals import AMBIGUOUS, MAX_NUMBER_LENGTH, TypedNumber, read_number

__all__ = [
    "MAX_NUMBER_LENGTH",
    "NO_DEFAULT",
    "BoolParam",
    "Checked",
    "ChoiceParam",
    "Condition",
    "Expands",
    "InputError",
    "IntParam",
    "NumberParam",
    "Param",
    "TextParam",
    "TypedNumber",
    "checked",
    "read_number",
]

Condition = tuple[str, str]
"""``(name, value)``: a field applies only while the choice field ``name`` holds ``value``."""


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
    shown_when: Condition | None = None
    """The form shows (and a link carries) this field only under this condition
    (see "Fields that apply under one setting only" above); ``None``: always."""
    implies: Condition | None = None
    """An override's choice: given without that choice field, it sets it (see "Overrides"
    above); ``None``: none."""

    def check(self, value: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def parse(self, text: Any) -> Any:
        """Turn form input (text or a value) into a checked value."""
        return self.check(text)

    def describe_range(self) -> str:
        return ""

    def shown(self, value: Any) -> str:
        """``value`` as the working shows an input's value: 3, yes/no, a choice's label."""
        return str(value)


def _fmt(x: float) -> str:
    """Range ends for messages: 1,000,000 rather than 1e+06."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,}"


N = TypeVar("N", int, float)


@dataclass(frozen=True, kw_only=True)
class _NumberField(Param, Generic[N]):
    """What :class:`IntParam` and :class:`NumberParam` share: reading typed text and
    the message (label, range and unit) for anything out of range or unreadable, the
    range and the step (each kind gives their defaults)."""

    minimum: N
    maximum: N
    step: N
    """What a stepper adds or takes away (see "Steppers"): 1 unless declared."""

    def __post_init__(self) -> None:
        if not self.step > 0:  # (NaN fails too)
            raise ValueError(f"{self.name}: a stepper's step must be positive")

    def check(self, value: object) -> N:
        """``value`` as this kind of number (:meth:`_number`) and in range; else the
        field's message. A bool is not a number here (``True`` is not 1)."""
        if isinstance(value, bool):
            raise self._error()
        number = self._number(value)
        if not self.minimum <= number <= self.maximum:  # NaN fails too
            raise self._error()
        return number

    def _number(self, value: object) -> N:  # pragma: no cover - overridden
        """``value`` (not a bool) as this kind of number, range not checked; else the
        field's message."""
        raise NotImplementedError

    def _value(self, typed: TypedNumber) -> N | None:
        """The number ``typed`` stands for, or ``None`` if this kind of field refuses it."""
        magnitude = self._magnitude(typed)
        if magnitude is None:
            return None
        return -magnitude if typed.negative else magnitude

    def _magnitude(self, typed: TypedNumber) -> N | None:  # pragma: no cover - overridden
        """:meth:`_value` but for the sign."""
        raise NotImplementedError

    def _bounds(self) -> tuple[Decimal, Decimal, Decimal]:
        """The range and the step, exactly (a float as it prints: 0.1 is 0.1)."""
        low, high, step = (Decimal(str(x)) for x in (self.minimum, self.maximum, self.step))
        return low, high, step

    def stepped(self, text: str, direction: int) -> str | None:
        """``text`` one step up (``direction`` > 0) or down (< 0), as text the field reads
        back as that value; ``None`` if there is no step to take (see "Steppers").

        From a value outside the range, a step towards it lands on the bound.
        """
        typed = read_number(text) if isinstance(text, str) else None
        if typed is None or self._ambiguity(typed, text.strip()) or self._value(typed) is None:
            return None
        low, high, step = self._bounds()
        with localcontext() as ctx:
            ctx.prec = 2 * MAX_NUMBER_LENGTH  # exact for every text read
            value = Decimal(f"{typed.whole or '0'}.{typed.fraction or '0'}")
            value = -value if typed.negative else value
            if (direction > 0 and value >= high) or (direction < 0 and value <= low):
                return None
            new = value + step if direction > 0 else value - step
            new = min(high, max(low, new))
            out = format(new.normalize(), "f")
        if "." in out and len(out) > MAX_NUMBER_LENGTH:  # digits below 10⁻⁹⁰: cut
            out = out[:MAX_NUMBER_LENGTH].rstrip("0").rstrip(".")
        return "0" if out in ("-0", "") else out

    def _error(self) -> InputError:
        unit = f" {self.unit}" if self.unit else ""
        return InputError(self.name, f"{self.label} must be {self.describe_range()}{unit}.")

    def parse(self, text: Any) -> N:
        """Typed text read as described in "Numbers as typed", then checked; a value
        that is not text (a Python caller's) is checked as it is."""
        if not isinstance(text, str):
            return self.check(text)
        if not text.strip():
            raise InputError(self.name, f"{self.label} is empty: enter {self.describe_range()}.")
        typed = read_number(text)
        if typed is not None:
            ambiguous = self._ambiguity(typed, text.strip())
            if ambiguous:
                raise InputError(self.name, ambiguous)
        value = None if typed is None else self._value(typed)
        if value is None:
            raise self._error()
        return self.check(value)

    def _ambiguity(self, typed: TypedNumber, text: str) -> str:
        """The message for text this kind of field could read two ways, or ``""``."""
        return ""

    def _both(
        self, text: str, typed: TypedNumber, first: tuple[str, str], second: tuple[str, str]
    ) -> str:
        """:data:`AMBIGUOUS` for ``text``: its two readings, each ``(digits, what the mark
        would be)``, with the sign typed."""
        sign = "-" if typed.negative else ""
        a, b = sign + first[0], sign + second[0]
        return AMBIGUOUS.format(
            label=self.label,
            text=text,
            first=a,
            first_is=first[1],
            second=b,
            second_is=second[1],
            both=f"{a} or {b}",
        )

    def notation(self) -> str:  # pragma: no cover - overridden
        """How the field reads commas, points and exponents, in a sentence (its help)."""
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class IntParam(_NumberField[int]):
    """A whole number in ``[minimum, maximum]``."""

    minimum: int = 0
    maximum: int = 10
    step: int = 1

    def describe_range(self) -> str:
        return f"a whole number from {self.minimum:,} to {self.maximum:,}"

    def _number(self, value: object) -> int:
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise self._error()

    def _magnitude(self, typed: TypedNumber) -> int | None:
        """A decimal part only after a point, and zero ("3.0")."""
        if typed.mark == "," or typed.fraction.strip("0"):
            return None
        return int(typed.whole or "0")

    def _ambiguity(self, typed: TypedNumber, text: str) -> str:
        """``1.000``: 1, or 1000 with a thousands point (a decimal part of exactly three
        zeros after a one- to three-digit whole part not starting with 0)."""
        whole = typed.whole
        if (
            typed.exponent
            or typed.mark != "."
            or len(typed.fraction) != 3
            or typed.fraction.strip("0")
            or not 1 <= len(whole) <= 3
            or whole[0] == "0"
            or not text.lstrip("+-\u2212").startswith(whole + ".")
        ):
            return ""
        return self._both(
            text,
            typed,
            (str(int(whole)), "a decimal point"),
            (whole + typed.fraction, "a thousands point"),
        )

    def notation(self) -> str:
        return (
            "A whole number: 12500, 12 500 or 12,500 (1e3 is 1000); no decimal part "
            "(1.000 could be 1 or 1000: type which)."
        )


@dataclass(frozen=True, kw_only=True)
class NumberParam(_NumberField[float]):
    """A real number in ``[minimum, maximum]`` (kilograms, metres …)."""

    minimum: float = 0.0
    maximum: float = 1e12
    step: float = 1.0

    def describe_range(self) -> str:
        return f"a number from {_fmt(self.minimum)} to {_fmt(self.maximum)}"

    def shown(self, value: Any) -> str:
        """As a reader writes it: 200 (not 200.0), 2.5, 1,500."""
        return _fmt(value)

    def _number(self, value: object) -> float:
        if not isinstance(value, int | float):
            raise self._error()
        try:
            return float(value) + 0.0  # (+ 0.0: −0.0 becomes 0.0)
        except OverflowError:  # an int too large for a float
            raise self._error() from None

    def _magnitude(self, typed: TypedNumber) -> float:
        return float(f"{typed.whole or '0'}.{typed.fraction or '0'}")

    def _ambiguity(self, typed: TypedNumber, text: str) -> str:
        """``1,250``: 1250 with a thousands comma, or 1.25 with a decimal comma."""
        if not typed.comma_group:
            return ""
        first, group = text.lstrip("+-\u2212").split(",")
        decimal = f"{first}.{group}".rstrip("0").rstrip(".")
        return self._both(
            text, typed, (first + group, "a thousands comma"), (decimal, "a decimal comma")
        )

    def notation(self) -> str:
        return (
            "Decimals with a point (2.5) or a comma (2,5); thousands as 12500, 12 500 or "
            "12,500.5; 1,250 could be either, so type 1250 or 1.25; 1e3 is 1000."
        )


@dataclass(frozen=True, kw_only=True)
class BoolParam(Param):
    """A yes/no switch."""

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise InputError(self.name, f"{self.label} must be yes or no.")
        return value

    def shown(self, value: Any) -> str:
        return "yes" if value else "no"


@dataclass(frozen=True, kw_only=True)
class ChoiceParam(Param):
    """One of a fixed set of options: ``choices`` is ((value, label), ...)."""

    choices: tuple[tuple[str, str], ...] = ()

    def describe_range(self) -> str:
        return "one of " + ", ".join(label for _, label in self.choices)

    def shown(self, value: Any) -> str:
        return f"“{dict(self.choices)[str(value)]}”"

    def check(self, value: object) -> str:
        # (text first: a list or dict is refused with the message, never a TypeError)
        if not isinstance(value, str) or value not in {v for v, _ in self.choices}:
            raise InputError(self.name, f"{self.label} must be one of {self.link_values()}.")
        return value

    def link_values(self) -> str:
        """The values a link takes, each with its label beside it where they differ:
        ``2.1 = Aberrant 2.1, 2.0 = Aberrant 2.0``."""
        return ", ".join(v if v == label else f"{v} = {label}" for v, label in self.choices)


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

    def parse(self, text: Any) -> Any:
        """Typed text (every text field, whatever its ``check``) is first refused if it
        holds a character of :data:`_HIDDEN`; then checked."""
        if isinstance(text, str):
            hidden = _HIDDEN.search(text)
            if hidden:
                line = text.count("\n", 0, hidden.start()) + 1
                raise InputError(
                    self.name,
                    f"{self.label}, line {line}: an invisible control character "
                    f"(U+{ord(hidden.group()):04X}) would make the text show differently "
                    "from what is read: remove it (retype the line if you pasted it).",
                )
        return self.check(text)


_HIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
"""Characters free text may not hold: control characters (tab and line breaks allowed)
and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
which reverse or reorder how a name is shown (a "Trojan Source" display)."""


P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Checked(Protocol, Generic[P, R_co]):
    """A rule function decorated by :func:`checked`: the same call, plus ``params``
    (the declarations, defaults filled in) and ``unchecked`` (the function itself,
    for values already checked by each ``Param.parse``)."""

    params: tuple[Param, ...]
    roles: tuple[Expands, ...]
    __name__: str

    @property
    def unchecked(self) -> Callable[..., R_co]: ...

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...


class Expands(Protocol):
    """A declaration standing for several form fields and one argument: a
    :class:`ruleslab.records.Role` (declared there; :func:`checked` needs only this)."""

    @property
    def name(self) -> str: ...

    @property
    def params(self) -> tuple[Param, ...]: ...

    @property
    def flat_names(self) -> tuple[str, ...]: ...

    def build(self, flat: dict[str, Any], base: Any = None, *, check: bool = True) -> Any: ...


def checked(*params: Param | Expands) -> Callable[[Callable[P, R]], Checked[P, R]]:
    """Declare a rule function's parameters and validate every call against them.

    The declaration is kept on the function as ``fn.params`` (a tuple, in form
    order) so that the widget layer can build a form from it. Parameters of the
    function that are not declared are passed through unchecked.

    A default is written once, in the function's signature: ``fn.params``
    carries it (a declared parameter without a signature default must declare
    its own). Raises :class:`TypeError` at import when a parameter is declared
    that the function does not have, when it has no default anywhere, or when
    both give one (they would drift).

    A role (:class:`ruleslab.records.Role`) among ``params`` stands for its
    record's fields, in its place: ``fn.params`` lists them flat (their defaults
    the role's), a caller passes the record by the role's name, its fields by
    their flat names, or both, and the function receives the record
    (``fn.roles`` lists the roles; the role's argument defaults to ``None``,
    meaning the role's own defaults).
    """
    roles = tuple(p for p in params if not isinstance(p, Param))

    def deco(fn: Callable[P, R]) -> Checked[P, R]:
        sig = inspect.signature(fn)
        missing = {p.name for p in params} - set(sig.parameters)
        if missing:
            raise TypeError(f"{fn.__name__} declares unknown parameters {sorted(missing)}")
        for role in roles:
            if sig.parameters[role.name].default is not None:
                raise TypeError(f"{fn.__name__}: role {role.name} must default to None")
        filled: list[Param] = []
        for p in params:
            if isinstance(p, Param):
                filled.append(_with_default(fn.__name__, p, sig.parameters[p.name]))
            else:
                filled += p.params
        names = [p.name for p in filled]
        clash = {n for n in names if names.count(n) > 1} | (
            {n for r in roles for n in r.flat_names} & set(sig.parameters)
        )
        if clash:
            raise TypeError(f"{fn.__name__}: field names used twice {sorted(clash)}")
        by_name = {p.name: p for p in params if isinstance(p, Param)}
        flat_params = {p.name: p for p in filled if p.name not in by_name}

        def split(kwargs: dict[str, Any]) -> dict[str, Any]:
            """Take the roles' flat fields out of ``kwargs``."""
            return {n: kwargs.pop(n) for n in list(kwargs) if n in flat_params}

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> R:
            flat = {n: flat_params[n].check(v) for n, v in split(kwargs).items()}
            bound = sig.bind(*args, **kwargs)
            for p in filled:  # an override given without its choice: entered
                if p.implies is not None and p.name in bound.arguments:
                    bound.arguments.setdefault(p.implies[0], p.implies[1])
            bound.apply_defaults()
            for name, value in bound.arguments.items():
                if name in by_name:
                    bound.arguments[name] = by_name[name].check(value)
            for role in roles:
                bound.arguments[role.name] = role.build(flat, bound.arguments[role.name])
            return fn(*bound.args, **bound.kwargs)

        unchecked: Callable[..., R] = fn
        if roles:

            @functools.wraps(fn)
            def unchecked(*args: Any, **kwargs: Any) -> R:
                flat = split(kwargs)
                for role in roles:
                    kwargs[role.name] = role.build(flat, kwargs.get(role.name), check=False)
                return fn(*args, **kwargs)

        setattr(wrapper, "params", tuple(filled))  # noqa: B010 - a function has no declared `params`
        setattr(wrapper, "unchecked", unchecked)  # noqa: B010
        setattr(wrapper, "roles", roles)  # noqa: B010
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
