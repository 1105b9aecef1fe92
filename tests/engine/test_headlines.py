"""Each calculator's headline (issue 37): the figures that answer the question its inputs
ask, declared once (:class:`ruleslab.declare.Headline`), chosen by the inputs.

For each input set of :data:`tests.engine.headline_cases.CASES` (by hand: which
question the inputs ask), the declaration picks the expected figures, the result has
each of them, and every headline a calculator declares is asked by some input set.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import pytest
from headline_cases import CASES

from ruleslab.calculators import CALCULATORS, get
from ruleslab.declare import Calculator, Headline
from ruleslab.params import BoolParam


def _values(calc: Calculator, link: str) -> dict[str, Any]:
    """Every field's parsed value: the defaults, then the link's fields as the form reads
    them (a checkbox's ``yes``)."""
    values = {
        p.name: p.parse(p.default) if isinstance(p.default, str) else p.default for p in calc.params
    }
    for name, text in parse_qsl(link):
        param = next(p for p in calc.params if p.name == name)
        values[name] = text == "yes" if isinstance(param, BoolParam) else param.parse(text)
    return values


def test_every_calculator_declares_headlines_and_has_cases() -> None:
    assert {c.key for c in CALCULATORS} == set(CASES)
    for calc in CALCULATORS:
        assert calc.headlines, calc.key
        assert len(CASES[calc.key]) >= 2, calc.key


@pytest.mark.parametrize(
    ("key", "link", "figures"),
    [(key, link, figures) for key, cases in CASES.items() for link, figures in cases],
)
def test_the_inputs_choose_the_headline(key: str, link: str, figures: tuple[str, ...]) -> None:
    calc = get(key)
    values = _values(calc, link)
    declared = calc.headline_keys(values)  # (less a figure these inputs do not have)
    assert [k for k in declared if k in figures] == list(figures)
    result = calc.run(values)
    shown = calc.headline(values, result)
    assert tuple(f.key for f in shown) == figures
    assert all(f.text for f in shown)


def test_every_declared_headline_is_asked_by_some_input_set() -> None:
    for calc in CALCULATORS:
        asked = {figures for _link, figures in CASES[calc.key]}
        for headline in calc.headlines:
            assert headline.figures in asked, (calc.key, headline.figures)


def test_a_figure_the_inputs_do_not_give_is_left_out() -> None:
    calc = get("warfare")  # (dazing ignored: no chance of being Stunned)
    values = _values(calc, "dazing=ignore")
    assert "p_stunned" in calc.headline_keys(values)
    assert [f.key for f in calc.headline(values, calc.run(values))] == ["p_hit", "expected_damage"]


def test_a_declaration_is_checked() -> None:
    with pytest.raises(ValueError, match="once each"):
        Headline(("p_hit", "p_hit"))
    with pytest.raises(ValueError, match="once each"):
        Headline(())
    base = get("dice_pool")
    with pytest.raises(ValueError, match="last headline"):
        Calculator(
            key="x",
            title="x",
            summary="x",
            compute=base.compute,
            rules=base.rules,
            headlines=(Headline(("p_success",), when=lambda v: v["dice"] > 1),),
        )


def test_without_a_headline_the_first_three_figures() -> None:
    base = get("dice_pool")
    bare = Calculator(key="x", title="x", summary="x", compute=base.compute, rules=base.rules)
    values = base.defaults()
    result = bare.run(values)
    assert bare.headline(values, result) == result.figures()[:3]
