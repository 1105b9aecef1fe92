"""The notebooks' "Tinker" cells end on an engine result, which a notebook shows as HTML.

A cell is run as IPython runs it: every statement, then the last one, an
expression, evaluated and displayed (here: its ``_repr_html_``).
"""

from __future__ import annotations

import ast
import contextlib
import io
from html import escape

import pytest

from ruleslab.calculators import CALCULATORS
from ruleslab.explain import Explained
from tools.make_content import notebook, tinker_code


def _run_cell(source: str) -> object:
    """Run a notebook cell; the value of its last expression (None if it ends otherwise)."""
    tree = ast.parse(source)
    last = tree.body[-1]
    namespace: dict[str, object] = {"__name__": "__notebook__"}
    body = ast.Module(body=tree.body[:-1], type_ignores=[])
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(body, "<cell>", "exec"), namespace)
        if not isinstance(last, ast.Expr):
            exec(compile(ast.Module(body=[last], type_ignores=[]), "<cell>", "exec"), namespace)
            return None
        return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_the_tinker_cell_displays_a_result_with_its_figures_and_steps(key):
    calc = next(c for c in CALCULATORS if c.key == key)
    cell = next(c for c in notebook(calc)["cells"] if c["id"] == "example")
    source = "".join(cell["source"])
    assert source.startswith(calc.example.rstrip("\n"))  # the example, untouched
    value = _run_cell(source)
    assert isinstance(value, Explained), f"{key}: the cell ends on {value!r:.80}"
    html = value._repr_html_()
    for figure in value.figures():
        assert f"{escape(figure.label)}</th>" in html
        assert f'data-figure="{escape(figure.key)}"><strong>{escape(figure.text)}<' in html
    assert value.steps
    assert escape(value.steps[0].rule) in html


def test_an_example_ending_on_an_expression_is_kept_as_it_is():
    calc = next(c for c in CALCULATORS if c.key == "lifting")
    from dataclasses import replace

    ends = replace(calc, example="from ruleslab.calculators.lifting import x\nx(1)\n")
    assert tinker_code(ends) == "from ruleslab.calculators.lifting import x\nx(1)"
    reassigned = replace(
        calc,
        example="r = lifting_and_encumbrance(strength=4)\nr = 3\nprint(r)\n",
    )
    assert tinker_code(reassigned).endswith("\nlifting_and_encumbrance(strength=4)")
