"""Our anywidgets share one class per widget class (ruleslab_widgets.module_widget).

anywidget gives every instance its ``_esm``, ``_css`` and ``_anywidget_id`` traits through
traitlets' ``add_traits``, which makes a class per instance. ``ModuleWidget`` makes it for
the first instance, the way anywidget does, and gives it to the later ones: the later
instances must say to the page exactly what the first one does.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("anywidget")
import ruleslab_widgets
from ruleslab_widgets.module_widget import ModuleWidget

PACKAGE = Path(ruleslab_widgets.__file__).parent


def _declared() -> list[tuple[str, str, str]]:
    """(module, class, base as written) of every class in the package's sources that
    declares ``_esm`` (read from the files: importing the whole package here would
    install the app page's stand-ins in the tests' process)."""
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(s, ast.Assign) and any(getattr(t, "id", "") == "_esm" for t in s.targets)
                for s in node.body
            ):
                bases = ", ".join(ast.unparse(b) for b in node.bases)
                found.append((f"ruleslab_widgets.{path.stem}", node.name, bases))
    return found


def _ours() -> list[type]:
    return [getattr(importlib.import_module(m), name) for m, name, _ in _declared()]


def test_every_anywidget_of_ours_is_a_module_widget():
    declared = _declared()
    assert len(declared) >= 9, declared
    # (RecordPage: the record-store pages' base, itself a ModuleWidget)
    assert {base for _, _, base in declared} <= {"ModuleWidget", "RecordPage"}, declared
    assert all(issubclass(cls, ModuleWidget) for cls in _ours())


def _unnamed(state: dict) -> dict:
    """``state`` with every widget reference (``IPY_MODEL_<id>``) as ``IPY_MODEL_``."""
    return json.loads(re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL_", json.dumps(state)))


def _maker(cls: type):
    """A function making an instance of ``cls`` (what its constructor needs made first)."""
    from ruleslab import IntParam
    from ruleslab_widgets.number import NumberField
    from ruleslab_widgets.party import PartyBar

    if issubclass(cls, NumberField):
        strength = IntParam(name="strength", label="Strength", default=3, minimum=0, maximum=10)
        return lambda: cls(strength)
    if issubclass(cls, PartyBar):
        view = ruleslab_widgets.calculator("dice_pool")
        return lambda: cls(view)
    return cls


@pytest.mark.parametrize("cls", _ours(), ids=lambda c: c.__qualname__)
def test_later_instances_share_the_first_ones_class_and_say_the_same(cls, monkeypatch):
    make = _maker(cls)
    monkeypatch.setattr(ModuleWidget, "_made", {})  # the first instance: made anywidget's way
    first, second = make(), make()
    try:
        assert type(second) is type(first)
        assert type(first) is not cls  # (anywidget's traits are on a class of their own)
        assert second.keys == first.keys
        assert {"_esm", "_anywidget_id"} <= set(first.keys)
        assert first.get_state()["_esm"] == cls._esm
        assert first._anywidget_id == f"{cls.__module__}.{cls.__name__}"
        # the whole state (but the ids of the widgets each names, as its layout): the
        # first instance's is anywidget's own
        assert _unnamed(second.get_state()) == _unnamed(first.get_state())
    finally:
        first.close()
        second.close()
