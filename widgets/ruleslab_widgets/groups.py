"""The groups of inputs a calculator's form shows (each a foldable box of the view).

A calculator that declares its groups (:attr:`ruleslab.declare.Calculator.groups`)
shows those; one that declares none shows one group per role of its function
(:func:`role_groups`). Used by the view and by the panels that name a field by its
group (the sweep's "Input to vary").
"""

from __future__ import annotations

from ruleslab.declare import Calculator, FieldGroup

__all__ = ["form_groups", "role_groups"]


def form_groups(calc: Calculator) -> tuple[FieldGroup, ...]:
    """The groups ``calc``'s form shows: its declared ones, else :func:`role_groups`."""
    return calc.groups or role_groups(calc)


def role_groups(calc: Calculator) -> tuple[FieldGroup, ...]:
    """Groups for a calculator that declares none: one per role of its function (the
    lifter, the target …), of the role's fields that are not rules options."""
    options = set(calc.options)
    names = {p.name for p in calc.params}
    groups = []
    for role in getattr(calc.compute, "roles", ()):
        fields = tuple(n for n in role.flat_names if n in names and n not in options)
        names -= set(fields)  # (a field in one group only)
        if fields:
            groups.append(FieldGroup(role.title, fields))
    return tuple(groups)
