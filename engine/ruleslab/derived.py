"""A person's figures derived from his record, or entered instead (an override, marked).

Issue 33: "Soak, health track, Defense and initiative must be derived from the record
the same way everywhere (an override stays possible, marked as such)." A calculator
declares such a figure once with :func:`override`: a choice field ``<name>_from``
(``record``, the default, or ``entered``) and the entered figure's field, shown only
when ``entered`` is chosen and declared to imply it (:attr:`ruleslab.params.Param.implies`),
so a call, a link or a scenario that gives the figure but not the choice reads as the
override, never as the record. :func:`record_or_entered` then takes the record's figure
(worked out by the rule module, with its step) or the entered one, with a step that
names the override beside the record's figure.

Standard library only, below the rules: it knows no rule, only how an override is
declared and marked.
"""

from __future__ import annotations

from dataclasses import replace

from ruleslab.explain import Step
from ruleslab.params import ChoiceParam, IntParam

__all__ = ["ENTERED", "RECORD", "override", "record_or_entered"]

RECORD = "record"
ENTERED = "entered"


def override(value: IntParam, *, record: str, help: str) -> tuple[ChoiceParam, IntParam]:
    """The choice ``<value.name>_from``, labelled "<value's label> from" (``record``,
    labelled ``record``: "The target's record (Quantum, Stamina, Mega-Stamina)";
    ``entered``: ``value`` overrides it) and ``value`` shown and implied as the override
    (labelled "… (entered, overrides the record)"). ``help``: the choice's help, saying
    how the record's figure is worked out."""
    choice = ChoiceParam(
        f"{value.name}_from",
        f"{value.label} from",
        choices=((RECORD, record), (ENTERED, "Entered: an override of the record")),
        help=help,
    )
    entered = replace(
        value,
        label=f"{value.label} (entered, overrides the record)",
        help=f"Used only when “{choice.label}” is “entered”: {value.help}",
        shown_when=(choice.name, ENTERED),
        implies=(choice.name, ENTERED),
    )
    return choice, entered


def record_or_entered(
    choice: ChoiceParam,
    source: str,
    entered: int,
    derived: tuple[int, Step],
    *,
    what: str,
    whose: str,
    note: str,
) -> tuple[int, Step]:
    """The figure ``source`` (the value of ``choice``, made by :func:`override`) says:
    the record's (``derived``: the figure and the step working it out) or ``entered``,
    with a step marking the override and naming the record's figure beside it: "Natural
    soak 4 entered (“Target's natural soak from”: entered), overriding the target's
    record, which gives 2 (rules note RN-SOAK-4)" (``what``: "Natural soak"; ``whose``:
    "the target's"; ``note``: the rules note)."""
    value, step = derived
    if source == RECORD:
        return value, step
    if source != ENTERED:  # (checked by the choice; a wrong caller is a bug)
        raise ValueError(f"{choice.name}: {source!r}")
    return entered, Step(
        f"{what} {entered} entered (“{choice.label}”: entered), overriding {whose} record, "
        f"which gives {value} ({note})",
        step.rule,
    )
