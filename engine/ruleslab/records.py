"""Records declared once, and the roles a calculator gives them.

A *record* is a person or a state as one frozen value: an Aberrant
:class:`~ruleslab.character.Character`, a Chimera
:class:`~ruleslab.chimera.attack.Fighter`, the
:class:`~ruleslab.character.Conditions` a character is in at the moment of a
roll. Its fields are declared once, each by a :class:`~ruleslab.params.Param`
(label, range, help), with :func:`record`; the dataclass gives the defaults::

    @record(STRENGTH, MIGHT)
    @dataclass(frozen=True, kw_only=True)
    class Character:
        strength: int = 3
        might: int = 0

    Character(strength=4)          # checked: Character(strength=11) raises InputError

A *role* is the part a record plays in one calculator: the lifter, the target,
side A. A calculator declares it once with :class:`Role` (which record, which of
its fields the calculator reads, how their form fields are named) among its
inputs (``@checked(LIFTER, OBJECT_KG, …)``), and everything else follows from
it:

* the form's fields, one per field read, named ``<prefix><field>`` (``a_mr``;
  a role may keep an older link name for a field, ``names={"leader_fell": "leader"}``)
  and labelled ``<label><field's label>`` ("A: Base Movement Rate (MR)");
* the form's group, where the calculator wants one (``FieldGroup(role.title,
  role.flat_names)``, :class:`ruleslab.declare.FieldGroup`);
* the function's argument: a Python caller passes the whole record
  (``lifter=Character(strength=4, might=2)``), the flat fields (``strength=4``),
  or both (a flat field then changes that one field of the record). The form
  passes the flat fields; the function always receives the record.

Standard library only, like the whole engine.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ruleslab.params import NO_DEFAULT, Condition, InputError, Param, TextParam

__all__ = ["Role", "fields_of", "record", "record_params"]

T = TypeVar("T")

_PARAMS = "__record_params__"
_replace: Callable[..., Any] = dataclasses.replace
_TRUSTED: ContextVar[bool] = ContextVar("ruleslab_trusted_record", default=False)
_REFUSE_UNREAD = "__record_refuse_unread__"


@contextmanager
def _trusting(trusted: bool) -> Iterator[None]:
    """Records made inside skip their fields' checks (``trusted``: the form checked each
    value once) or check them (not ``trusted``: even within a trusted block)."""
    token = _TRUSTED.set(trusted)
    try:
        yield
    finally:
        _TRUSTED.reset(token)


def record(*params: Param, refuse_unread: bool = False) -> Callable[[type[T]], type[T]]:
    """Declare a frozen dataclass's fields by ``params`` (one per field, same names).

    Each field's default is the dataclass's (written once, there); the record's
    ``__post_init__`` checks every declared field with its ``Param.check`` (so a
    record is never out of range, and a field may be given as text its ``Param``
    parses, such as dice ``"2d6"``) and raises :class:`InputError` naming the field.
    ``refuse_unread``: a calculator refuses such a record with a field set that it does
    not apply (:attr:`Role.applies`).
    """

    def deco(cls: type[T]) -> type[T]:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__}: @record goes above @dataclass")
        by_field = {f.name: f for f in dataclasses.fields(cls)}
        unknown = [p.name for p in params if p.name not in by_field]
        if unknown:
            raise TypeError(f"{cls.__name__} declares unknown fields {unknown}")
        filled = []
        for p in params:
            default = by_field[p.name].default
            if default is dataclasses.MISSING:
                raise TypeError(f"{cls.__name__}.{p.name} has no default")
            if p.default is not NO_DEFAULT:
                raise TypeError(f"{cls.__name__}.{p.name}: its default is the dataclass's")
            filled.append(replace(p, default=default))
        setattr(cls, _PARAMS, tuple(filled))
        setattr(cls, _REFUSE_UNREAD, refuse_unread)
        own_post_init = getattr(cls, "__post_init__", None)

        def post_init(self: Any) -> None:
            if not _TRUSTED.get():
                for p in filled:
                    object.__setattr__(self, p.name, p.check(getattr(self, p.name)))
            if own_post_init is not None:
                own_post_init(self)

        setattr(cls, "__post_init__", post_init)  # noqa: B010
        if own_post_init is None:  # the dataclass's __init__ does not call one: wrap it
            init = cls.__init__

            @functools.wraps(init)
            def init_checked(self: Any, *args: Any, **kwargs: Any) -> None:
                init(self, *args, **kwargs)
                post_init(self)

            setattr(cls, "__init__", init_checked)  # noqa: B010
        return cls

    return deco


def record_params(cls: type) -> tuple[Param, ...]:
    """The declarations of a :func:`record`'s fields (defaults filled in), in order."""
    params: tuple[Param, ...] | None = getattr(cls, _PARAMS, None)
    if params is None:
        raise TypeError(f"{cls.__name__} is not declared with @record")
    return params


def fields_of(cls: type) -> tuple[str, ...]:
    """The names of a :func:`record`'s declared fields."""
    return tuple(p.name for p in record_params(cls))


@dataclass(frozen=True)
class Role:
    """The part a record plays in one calculator (see the module's docstring).

    ``name`` is the function's argument (``"lifter"``, ``"a"``); ``title`` the
    form group's title ("Combatant A"); ``record`` the record's class;
    ``fields`` the record's fields the calculator reads, in form order (the
    others keep the record's value: its default, or the value of a record a
    Python caller passed). Form field names are ``prefix + field`` unless
    ``names`` gives another (older links keep opening); labels are ``label +
    the field's label`` unless ``labels`` gives another; ``help`` and
    ``defaults`` override a field's help text or default for this role,
    ``shown_when_field`` a field's condition (a flat field name and value);
    ``fixed`` sets fields the form never shows (a fighter's ``name``);
    ``shown_when`` hides the whole role under a condition,
    as a field's.
    """

    name: str
    title: str
    record: type
    fields: tuple[str, ...]
    prefix: str = ""
    label: str = ""
    names: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    help: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    shown_when: Condition | None = None
    shown_when_field: Mapping[str, Condition] = field(default_factory=dict)
    applies: tuple[str, ...] = ()
    """Fields of the record the calculator applies though its form does not show them
    (a Python caller's record may set them). On a record declared with
    ``refuse_unread=True`` (:func:`record`: the conditions), any other field a caller
    sets away from its default is refused (:meth:`build`): a condition the calculator
    cannot apply is never silently dropped."""

    def __post_init__(self) -> None:
        known = set(fields_of(self.record))
        for what, names in (
            ("fields", self.fields),
            ("names", self.names),
            ("labels", self.labels),
            ("help", self.help),
            ("shown_when_field", self.shown_when_field),
            ("defaults", self.defaults),
            ("applies", self.applies),
        ):
            unknown = set(names) - known
            if unknown:
                raise TypeError(f"role {self.name}: {what} name unknown fields {sorted(unknown)}")
        extra = (
            set(self.names)
            | set(self.labels)
            | set(self.help)
            | set(self.defaults)
            | set(self.shown_when_field)
        ) - set(self.fields)
        if extra:
            raise TypeError(f"role {self.name}: {sorted(extra)} are not among its fields")
        if len(set(self.fields)) != len(self.fields):
            raise TypeError(f"role {self.name}: a field is listed twice")
        self.default_record()  # the role's defaults checked (and parsed) once, at import

    def flat_name(self, field_name: str) -> str:
        """The form's (and a link's) name for the record's field ``field_name``."""
        return self.names.get(field_name, self.prefix + field_name)

    @property
    def params(self) -> tuple[Param, ...]:
        """The form's fields for this role, in order, each with its flat name and default."""
        by_field = {p.name: p for p in record_params(self.record)}
        out = []
        for f in self.fields:
            p = by_field[f]
            changes: dict[str, Any] = {
                "name": self.flat_name(f),
                "label": self.labels.get(f, self.label + p.label),
            }
            if f in self.help:
                changes["help"] = self.help[f]
            if f in self.defaults:
                checked = p.check(self.defaults[f])
                # a text field's default is the text the form shows (it parses into the
                # record's value); any other the checked value
                changes["default"] = self.defaults[f] if isinstance(p, TextParam) else checked
            if f in self.shown_when_field:
                changes["shown_when"] = self.shown_when_field[f]
            elif self.shown_when is not None and p.shown_when is None:
                changes["shown_when"] = self.shown_when
            elif p.shown_when is not None and self.prefix:
                field_, value = p.shown_when
                changes["shown_when"] = (self.flat_name(field_), value)
            out.append(replace(p, **changes))
        return tuple(out)

    def param(self, field_name: str) -> Param:
        """The form's field for the record's field ``field_name``, as :attr:`params` has it."""
        return self.params[self.fields.index(field_name)]

    @property
    def flat_names(self) -> tuple[str, ...]:
        return tuple(self.flat_name(f) for f in self.fields)

    def default_record(self) -> Any:
        """The record this role holds when nothing is given: the record's defaults,
        this role's ``defaults`` and ``fixed`` over them, checked and parsed once."""
        return self._default_record

    @functools.cached_property
    def _default_record(self) -> Any:
        with _trusting(False):
            return self.record(**{**self.defaults, **self.fixed})

    def build(self, flat: Mapping[str, Any], base: Any = None, *, check: bool = True) -> Any:
        """The record from ``base`` (default: :meth:`default_record`) with every field of
        this role that ``flat`` names (by flat name) replaced; checked by the record,
        unless ``check`` is false (the form's values, each already checked once)."""
        if not check:
            with _trusting(True):
                return self.build(flat, base)
        rec: Any = self.default_record() if base is None else base
        if not isinstance(rec, self.record):
            raise InputError(
                self.name,
                f"{self.title} must be a {self.record.__name__}, not {type(rec).__name__}.",
            )
        if base is not None and getattr(self.record, _REFUSE_UNREAD, False):
            self._refuse_unread(rec)
        pairs = zip(self.fields, self.flat_names, strict=True)
        changes = {f: flat[n] for f, n in pairs if n in flat}
        if not changes and not self.fixed:
            return rec
        new: Any = _replace(rec, **changes, **self.fixed)
        return new

    def _refuse_unread(self, rec: Any) -> None:
        """Refuse a field of ``rec`` set away from its default that this calculator neither
        shows nor applies (see :attr:`applies`)."""
        read = (*self.fields, *self.applies)
        params = record_params(self.record)
        applied = ", ".join(f"“{p.label}”" for p in params if p.name in read)
        for p in params:
            if p.name not in read and getattr(rec, p.name) != p.default:
                raise InputError(
                    self.name,
                    f"{self.title}: “{p.label}” is {p.shown(getattr(rec, p.name))}, but this "
                    f"calculator does not apply it (only {applied}); leave it at "
                    f"{p.shown(p.default)}.",
                )

    def flatten(self, rec: Any) -> dict[str, Any]:
        """The form's values for record ``rec``: ``{flat name: value}``."""
        return {n: getattr(rec, f) for f, n in zip(self.fields, self.flat_names, strict=True)}
