"""The tree's shape (issues 9 and 36): the layers, one name per calculator, short modules.

Read from the source files (their ``import`` statements and definitions), not
by importing them, so a violation is reported with the file and line:

* the layers, each importing only from its own or those below it
  (:data:`LAYERS`): the framework, the rules (the quick reference and Chimera, then
  the combat alterations), the shared inputs, the calculators and the encounter, what
  if, the widgets (the package's public face re-exports from all of them);
* the engine imports nothing from the widgets; rule modules import no
  calculator, declaration or shared-input module; the widgets import only the
  engine's public API (no rule module: no per-calculator code);
* no import cycles among the project's modules;
* rule modules declare no inputs (no ``Param`` built, no ``@checked``): inputs
  are declared in ``ruleslab/calculators/<key>.py`` or ``ruleslab/inputs.py``;
* calculator declarations hold no lambdas (a chart's bars and highlight are
  the result's own method);
* no engine module is over :data:`MAX_LINES` lines unless its docstring says why;
* the engine laid out by the rulebook (issue 36): its root holds only the framework and
  the public face (:data:`FRAMEWORK`), every rules module sits in the package named after
  its text (:data:`TEXTS`), and the layers import only downwards (:data:`LAYERS`).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from ruleslab.calculators import CALCULATORS, KEYS

pytestmark = pytest.mark.skipif(
    sys.platform == "emscripten",
    reason="reads the source tree, which Pyodide's copy of the tests lacks",
)

ROOT = Path(__file__).parents[2]
ENGINE = ROOT / "engine"
WIDGETS = ROOT / "widgets"
MAX_LINES = 600
LONG_REASON = "600 lines"
"""A longer module's docstring says why, naming the limit ("over 600 lines, for a reason: …")."""

DECLARING = ("ruleslab.calculators", "ruleslab.declare", "ruleslab.inputs", "ruleslab.whatif")
"""Modules that declare calculators and their inputs, and what if (``ruleslab.whatif``:
scenarios and sweeps of any declared calculator): above the rules."""

PUBLIC_API = (
    "ruleslab",
    "ruleslab.calculators",
    "ruleslab.declare",
    "ruleslab.explain",
    "ruleslab.params",
    "ruleslab.party",
    "ruleslab.whatif",
)
"""What the widget layer may import from the engine (the party's records and its file
format are the public face too: the party bar reads and writes them)."""

PARAM_KINDS = {"Param", "IntParam", "NumberParam", "BoolParam", "ChoiceParam", "TextParam"}


def _module_name(path: Path) -> str:
    base = ENGINE if ENGINE in path.parents else WIDGETS
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    paths = sorted((ENGINE / "ruleslab").rglob("*.py")) + sorted(
        (WIDGETS / "ruleslab_widgets").rglob("*.py")
    )
    return {_module_name(p): p for p in paths}


MODULES = _modules()


def _imports(name: str) -> list[tuple[str, int]]:
    """Project modules ``name`` imports (anywhere in the file), with line numbers."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from p import m`` imports the module p.m when there is one, else a name of p
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names
            ]
        for target in targets:
            # the longest project module the target names (``from m import f`` → m)
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append((target, node.lineno))
    return sorted(set(found))


RECORDS = (
    "ruleslab.params",
    "ruleslab.records",
    "ruleslab.character",
    "ruleslab.chimera.fighter",
    "ruleslab.quickref.weapon",
)
"""Declarations below the rules: fields and the records made of them (a rule may take a
record, such as a :class:`ruleslab.character.Character`)."""


def _is_rule_module(name: str) -> bool:
    return name.startswith("ruleslab.") and not name.startswith((*DECLARING, *RECORDS))


def test_the_engine_imports_nothing_from_the_widgets():
    bad = [
        f"{name}:{line} imports {target}"
        for name in MODULES
        if name.startswith("ruleslab") and not name.startswith("ruleslab_widgets")
        for target, line in _imports(name)
        if target.startswith("ruleslab_widgets")
    ]
    assert bad == []


def test_rule_modules_import_no_declarations():
    bad = [
        f"{name}:{line} imports {target}"
        for name in MODULES
        if _is_rule_module(name)
        for target, line in _imports(name)
        if target.startswith(DECLARING)
    ]
    assert bad == []


def test_the_widgets_use_only_the_engines_public_api():
    bad = [
        f"{name}:{line} imports {target}"
        for name in MODULES
        if name.startswith("ruleslab_widgets")
        for target, line in _imports(name)
        if not target.startswith("ruleslab_widgets")
        and target not in PUBLIC_API
        and not target.startswith("ruleslab.calculators.")
        # the encounter is the tracker page's engine, as a calculator is a form's
        and not target.startswith("ruleslab.encounter")
    ]
    assert bad == []


def test_no_import_cycles():
    graph = {name: {t for t, _ in _imports(name)} for name in MODULES}
    # a package's __init__ importing its own submodules is not a cycle a reader walks
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not t.startswith(name + ".")}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _is_rule_module(n)))
def test_rule_modules_declare_no_inputs(name):
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called in PARAM_KINDS or called == "checked":
                bad.append(f"line {node.lineno}: {called}(...)")
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if getattr(target, "id", getattr(target, "attr", "")) == "checked":
                    bad.append(f"line {node.lineno}: @checked {node.name}")
    assert bad == [], f"{name} declares inputs (move them to its calculator): {bad}"


def test_one_module_per_calculator_named_by_its_key():
    folder = ENGINE / "ruleslab" / "calculators"
    assert {p.stem for p in folder.glob("*.py")} - {"__init__"} == set(KEYS)
    assert [c.key for c in CALCULATORS] == list(KEYS)
    for calc in CALCULATORS:
        assert calc.compute.unchecked.__module__.startswith("ruleslab.")


@pytest.mark.parametrize("calc", CALCULATORS, ids=KEYS)
def test_declarations_hold_no_lambdas(calc):
    functions = [v.chart for v in calc.views if hasattr(v, "chart")] + [r.run for r in calc.rolls]
    assert [f for f in functions if f.__name__ == "<lambda>"] == []


def test_no_long_engine_module_without_a_reason():
    long = []
    for name, path in MODULES.items():
        if not name.startswith("ruleslab.") and name != "ruleslab":
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        doc = " ".join(
            (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "").split()
        )
        if lines > MAX_LINES and LONG_REASON not in doc:
            long.append(f"{name}: {lines} lines")
    assert long == []


@pytest.mark.parametrize("calc", CALCULATORS, ids=KEYS)
def test_every_default_is_the_functions_signatures(calc):
    """Declared once: the form's default is the one a Python caller gets."""
    import inspect

    signature = inspect.signature(calc.compute.unchecked).parameters
    in_roles = {}
    for role in calc.compute.roles:
        assert signature[role.name].default is None, role.name  # the role's own defaults
        record = role.default_record()
        in_roles.update(
            {n: getattr(record, f) for f, n in zip(role.fields, role.flat_names, strict=True)}
        )
    for p in calc.params:
        if p.name in in_roles:  # a role's field: the default record's value, as the form
            assert in_roles[p.name] == p.check(p.default), p.name  # reads the form's default
            continue
        assert signature[p.name].default is not inspect.Parameter.empty, p.name
        assert signature[p.name].default == p.default, p.name


@pytest.mark.parametrize("key", KEYS)
def test_one_name_per_calculator(key):
    """Key, module, notebook, engine tests and rules note share the key."""
    assert (ENGINE / "ruleslab" / "calculators" / f"{key}.py").is_file()
    assert (ROOT / "content" / f"{key}.ipynb").is_file()
    assert (ROOT / "tests" / "engine" / f"test_{key}.py").is_file()
    assert (ROOT / "docs" / "rules-notes" / f"{key}.md").is_file()


FRAMEWORK = {
    "__init__": "the public face: the names a caller imports from ``ruleslab``",
    "params": "declared inputs",
    "declare": "declaring a calculator",
    "records": "records and roles",
    "inputs": "inputs several calculators share",
    "explain": "results that explain themselves",
    "sources": "the texts' section names",
    "pmf": "exact distributions",
    "dice": "the d10 pool",
    "decimals": "typed decimals",
    "ruleset": "the 2.0/2.1 switch",
    "character": "the character and his conditions, records",
    "party": "the GM's party, records",
}
"""The engine root's modules: rule-independent machinery and the public records."""

TEXTS = {
    "quickref": "aberrant-2.0-2.1-quick-reference.txt",
    "alterations": "aberrant-2.0-combat-alterations.txt",
    "chimera": "chimera-combat.txt",
}
"""A package per rules text (``/work/shared/rules/``), its ``__init__`` naming the text."""

ABOVE_THE_RULES = ("calculators", "encounter", "whatif")
"""The root's other packages: the calculators, the encounter tracker, what if."""

LAYERS = {
    "framework": 0,
    "quickref": 1,
    "chimera": 1,
    "alterations": 2,  # the quick reference's rules, altered
    "inputs": 3,  # the inputs several calculators share (a rule's readings among them)
    "calculators": 4,
    "encounter": 4,
    "whatif": 5,
    "ruleslab_widgets": 6,
}
"""Who may import whom: a module imports only from its own layer's group or lower ones
(the quick reference and Chimera are independent, as are the calculators and the tracker)."""


def _group(name: str) -> str:
    if name.startswith("ruleslab_widgets"):
        return "ruleslab_widgets"
    if name == "ruleslab.inputs":
        return "inputs"
    top = name.split(".")[1] if name.count(".") else "__init__"
    return top if top in LAYERS else "framework"


def test_the_engine_root_holds_only_the_framework_and_the_public_face():
    root = ENGINE / "ruleslab"
    modules = {p.stem for p in root.glob("*.py")}
    packages = {p.parent.name for p in root.glob("*/__init__.py")}
    assert modules == set(FRAMEWORK), "a rules module belongs in its text's package"
    assert len(modules) <= 15
    assert packages == set(TEXTS) | set(ABOVE_THE_RULES)


def test_every_rules_module_is_in_a_package_named_after_its_text():
    for key, text in TEXTS.items():
        doc = ast.get_docstring(ast.parse(MODULES[f"ruleslab.{key}"].read_text("utf-8")))
        assert doc is not None, f"ruleslab.{key} has a docstring"
        assert text in " ".join(doc.split()), f"ruleslab.{key} names {text}"
    stray = [
        name
        for name in MODULES
        if name.startswith("ruleslab.")
        and _group(name) == "framework"
        and name.removeprefix("ruleslab.") not in FRAMEWORK
    ]
    assert stray == []


def test_the_layers_import_only_downwards():
    bad = [
        f"{name}:{line} imports {target}"
        for name in MODULES
        if name != "ruleslab"  # the public face re-exports from every layer
        for target, line in _imports(name)
        if target != "ruleslab"  # the package itself (``__version__``)
        and (
            LAYERS[_group(target)] > LAYERS[_group(name)]
            or (LAYERS[_group(target)] == LAYERS[_group(name)] and _group(target) != _group(name))
        )
    ]
    assert bad == []


def test_the_layers_are_what_their_names_say():
    """The classification itself, on modules of each layer (so a renamed package or a
    mistyped prefix cannot leave every module in one layer, passing the test above)."""
    assert {_group(name) for name in MODULES if name != "ruleslab"} == set(LAYERS)
    assert _group("ruleslab.params") == "framework"
    assert _group("ruleslab.quickref.lifting") == "quickref"
    assert _group("ruleslab.chimera.duel") == "chimera"
    assert _group("ruleslab.alterations.henchmen.leader") == "alterations"
    assert _group("ruleslab.calculators.lifting") == "calculators"
    assert _group("ruleslab.encounter.aberrant") == "encounter"
    assert _group("ruleslab.whatif.links") == "whatif"
    assert _group("ruleslab_widgets.view") == "ruleslab_widgets"
