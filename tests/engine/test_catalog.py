"""The catalog (``ruleslab.calculators``): one module per calculator, named by its key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ruleslab import calculators as catalog


def test_one_module_per_key_declaring_that_key():
    folder = Path(catalog.__file__).parent
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    assert modules == set(catalog.KEYS)
    assert len(set(catalog.KEYS)) == len(catalog.KEYS)
    for key in catalog.KEYS:
        assert catalog.get(key).key == key
        assert catalog.get(key).notebook == f"{key}.ipynb"
    assert [c.key for c in catalog.CALCULATORS] == list(catalog.KEYS)


def test_an_unknown_key_lists_the_known_ones():
    with pytest.raises(KeyError, match="dice_pool, lifting"):
        catalog.get("nope")


@pytest.mark.skipif(sys.platform == "emscripten", reason="starts a Python subprocess")
def test_asking_for_one_calculator_imports_only_its_modules():
    """What the app page relies on to import less at start-up."""
    code = (
        "import sys\n"
        "from ruleslab.calculators import get\n"
        "get('dice_pool')\n"
        "print(sorted(m for m in sys.modules if m.startswith('ruleslab.calculators.')))\n"
        "print('ruleslab.alterations.compressed' in sys.modules,"
        " 'ruleslab.chimera' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()
    assert out == ["['ruleslab.calculators.dice_pool']", "False False"]
