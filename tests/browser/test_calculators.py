"""Drive every calculator in the built site with Chromium.

For each calculator: open its app page (``app.html?calculator=…``: a progress
message while Python starts in a Web Worker, then the calculator drawn in the
page itself), wait for the widget, change an input through the page, and check that the
figure shown becomes the engine's value (computed here, on CPython). Bad input
must show its message next to the field and keep the last result. No request
may leave 127.0.0.1 and no console error may appear. Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    EXECUTE_JS,
    KERNEL_TIMEOUT,
    field_box,
    figure_at,
    run_notebook,
    type_into,
)
from tools.make_content import calculator_page, embed_link, notebook_link

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import CALCULATORS, get  # noqa: E402
from ruleslab.declare import ChartView  # noqa: E402

# One scripted change per calculator: (field, text typed, figure to check)
CHANGES = {
    "lifting": [("strength", "4", "capacity"), ("object_kg", "450", "p_lift")],
    "dice_pool": [("dice", "9", "p_success"), ("difficulty", "3", "p_success")],
    "movement": [("dexterity", "5", "walking")],
    "jumping": [("distance_m", "8", "p_clear")],
    "falling": [("height_m", "30", "damage_dice")],
    "health": [("lethal", "3", "wound_penalty")],
    "damage": [("dice", "9", "dice_after_soak")],
    "autofire": [("targets", "3", "p_hit")],
    "healing": [("lethal", "5", "total_time")],
    "defence": [("attack_pool", "9", "action_chances")],
    "henchmen": [("henchmen", "20", "extra_health_levels")],
    "warfare": [("enemy_skill", "6", "p_hit")],
    "chimera": [
        ("b_defence", "3", "p_a_wins"),
        ("distance", "25", "p_a_wins"),
        ("a_encumbrance", "2", "a_mr"),
    ],
    "compressed": [("a_position", "3", "p_a_wins")],
}
BAD_INPUT = {
    "lifting": ("strength", "-2"),
    "dice_pool": ("dice", "200"),
    "movement": ("dexterity", "11"),
    "jumping": ("distance_m", "-2"),
    "falling": ("stamina", "0"),
    "health": ("stamina", "0"),
    "damage": ("dice", "lots"),
    "autofire": ("targets", "0"),
    "healing": ("lethal", "-1"),
    "defence": ("dexterity", "12"),
    "henchmen": ("charisma", "11"),
    "warfare": ("enemy_size", "11"),
    "chimera": ("a_mr", "-1"),
    "compressed": ("a_cover", "4"),
}


def test_every_calculator_has_a_scripted_change():
    assert set(CHANGES) == {c.key for c in CALCULATORS} == set(BAD_INPUT)


def _expected(key: str, values: dict) -> object:
    calc = get(key)
    parsed = {p.name: p.parse(values[p.name]) for p in calc.params}
    return calc.run(parsed)


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_app_page_drives_the_calculator(page, base_url, artifacts, key):
    from playwright.sync_api import expect

    calc = get(key)
    # the page's own worker (the same script as the shared one: test_shared_runtime.py):
    # Playwright sees a dedicated worker's requests and console, not a shared worker's
    page.add_init_script("delete window.SharedWorker")
    # its own page, where the landing page links (its form and figures in the first
    # response: test_prerender.py), taken over by the live calculator
    page.goto(base_url + calculator_page(calc))
    expect(page.locator("#loading")).to_be_visible()  # progress while Python starts
    app = page
    root = app.locator(f".rl-calc-{key}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    expect(page.locator("#loading")).to_have_count(0, timeout=5_000)

    values = dict(calc.defaults())
    first_figure = calc.params and _expected(key, values).figures()[0]
    expect(figure_at(app, key, first_figure.key)).to_have_text(first_figure.text)

    for name, text, figure in CHANGES[key]:
        values[name] = text
        want = _expected(key, values).figure(figure).text
        type_into(app, key, name, text)
        expect(figure_at(app, key, figure)).to_have_text(want, timeout=30_000)

    # bad input: message next to the field, last result kept, other inputs kept
    shown = figure_at(app, key, CHANGES[key][-1][2]).inner_text()
    name, bad = BAD_INPUT[key]
    type_into(app, key, name, bad)
    label = next(p.label for p in calc.params if p.name == name)
    message = app.locator(f".rl-calc-{key} .rl-message-{name}").first
    expect(message).to_contain_text(label, timeout=30_000)
    expect(message).to_contain_text("from")
    assert figure_at(app, key, CHANGES[key][-1][2]).inner_text() == shown
    for other, text, _ in CHANGES[key]:
        if other != name:
            assert field_box(app, key, other).input_value() == text
    assert app.locator("text=Traceback").count() == 0

    # every extra view (anywidget) is drawn: charts with their bars, the health track
    views = app.locator(f".rl-calc-{key} .rl-chart, .rl-calc-{key} .rl-hl")
    expect(views).to_have_count(len(calc.views))
    charts = app.locator(f".rl-calc-{key} .rl-chart")
    result = _expected(key, values)  # the last good inputs: the bad one was refused
    chart_views = [v for v in calc.views if isinstance(v, ChartView)]
    assert charts.count() == len(chart_views)
    for i, view in enumerate(chart_views):
        # every bar the engine gives is drawn (a chart may rightly have none, e.g. the
        # henchmen removed when the target is a character)
        bars = len(view.chart(result).bars)
        assert charts.nth(i).locator(".rl-bar").count() == bars
        # an empty chart says so instead of drawing bare axes
        assert charts.nth(i).locator(".rl-chart-empty").count() == (0 if bars else 1)
    assert sum(charts.nth(i).locator(".rl-bar").count() for i in range(charts.count())) > 0 or (
        not chart_views
    )

    page.screenshot(path=str(artifacts / f"{key}-page.png"))
    root.screenshot(path=str(artifacts / f"{key}.png"))
    assert page.watch.offsite == [], f"requests left the site: {page.watch.offsite}"
    assert page.watch.errors == [], f"console errors: {page.watch.errors}"
    # the app page's cut-down standard library held everything (ruleslab_widgets.app_stdlib)
    stdlibs = [u.rsplit("/", 1)[-1] for u in page.watch.requests if u.endswith("stdlib.zip")]
    assert stdlibs == ["app_stdlib.zip"]
    assert [w for w in page.watch.warnings if "standard library" in w] == []


def test_landing_page_links_every_calculator(page, base_url, artifacts):
    page.goto(base_url)
    for calc in CALCULATORS:
        item = page.locator(f'li.calc[data-key="{calc.key}"]')
        assert item.locator("a.app").get_attribute("href") == calculator_page(calc)
        assert item.locator("a.nb").get_attribute("href") == notebook_link(calc)
    page.screenshot(path=str(artifacts / "landing.png"), full_page=True)
    assert page.watch.offsite == []
    assert page.watch.errors == []


#: When the notebook's kernel session first exists, and when the notebook is first drawn.
SESSION_BEFORE_NOTEBOOK_JS = """(() => {
  if (window !== window.top) return;
  const timer = setInterval(() => {
    const app = window.jupyterapp;
    const now = performance.now();
    if (window.__rlNotebookAt === undefined && document.querySelector('.jp-Notebook')) {
      window.__rlNotebookAt = now;
    }
    if (window.__rlSessionAt === undefined && app && app.serviceManager) {
      const running = [...app.serviceManager.sessions.running()];
      if (running.some((s) => s.path === 'dice_pool.ipynb')) window.__rlSessionAt = now;
    }
    if (window.__rlNotebookAt !== undefined && window.__rlSessionAt !== undefined) {
      clearInterval(timer);
    }
  }, 10);
})();"""


def test_notebook_view_runs_the_calculator(page, base_url, artifacts):
    """The notebook view (for GMs who tinker): open it, run all, drive it."""
    from playwright.sync_api import expect

    calc = get("dice_pool")
    page.add_init_script(SESSION_BEFORE_NOTEBOOK_JS)
    infos: list[str] = []
    page.on("console", lambda msg: infos.append(msg.text) if msg.type == "info" else None)
    page.goto(base_url + notebook_link(calc))
    run_notebook(page, "dice_pool")
    values = dict(calc.defaults())
    values["dice"] = "12"
    want = _expected("dice_pool", values).figure("mean").text
    type_into(page, "dice_pool", "dice", "12")
    expect(figure_at(page, "dice_pool", "mean")).to_have_text(want, timeout=30_000)
    page.screenshot(path=str(artifacts / "dice_pool-notebook.png"), full_page=True)
    # the kernel's Pyodide (lite/kernel-pyodide.mjs): the drive, its current directory,
    # is searched last; a module of the GM's own on it imports, one named after a
    # module of the standard library does not hide it
    out = page.evaluate(
        EXECUTE_JS,
        "import importlib, os, sys\n"
        "for name, text in (('rl_gm_module', 'ANSWER = 42'), ('graphlib', 'HIDDEN = 1')):\n"
        "    with open(name + '.py', 'w') as f:\n"
        "        f.write(text + '\\n')\n"
        "importlib.invalidate_caches()\n"
        "loaded_before = 'graphlib' in sys.modules\n"
        "import rl_gm_module, graphlib\n"
        "print(os.getcwd(), repr(sys.path[-1]), sys.path.count(''), rl_gm_module.ANSWER,\n"
        "      loaded_before, hasattr(graphlib, 'TopologicalSorter'),\n"
        "      hasattr(graphlib, 'HIDDEN'))\n",
    )
    assert out == "/drive '' 1 42 False True False\n", out
    # the kernel was started early (lite/early-kernel.js), and it is the notebook's only one
    kernels = page.evaluate(
        """async () => {
            const sm = window.jupyterapp.serviceManager;
            await sm.sessions.refreshRunning();
            await sm.kernels.refreshRunning();
            const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
            const main = [...window.jupyterapp.shell.widgets('main')];
            return {
                tabs: main.filter((w) => w.context && w.context.path === 'dice_pool.ipynb').length,
                address: window.location.search,
                sessions: [...sm.sessions.running()].map((s) => [s.path, s.kernel.id]),
                kernels: [...sm.kernels.running()].map((k) => k.id),
                notebook: kernel.id,
                script: performance.getEntriesByType('resource')
                    .some((e) => e.name.endsWith('static/ruleslab/early-kernel.js')),
            };
        }"""
    )
    assert kernels["script"]
    session_at, notebook_at = page.evaluate("() => [window.__rlSessionAt, window.__rlNotebookAt]")
    # started before the notebook was drawn: lite/early-kernel.js opens the notebook once its
    # session exists, so both may show in the same 10 ms poll (without the script the session
    # came 0.4 s after the notebook)
    assert session_at <= notebook_at
    # opened early (lite/early-kernel.js), then revealed by JupyterLite's own opener, which
    # took ?path= out of the address as usual: one tab
    assert kernels["tabs"] == 1
    assert "path=" not in kernels["address"], kernels["address"]
    assert kernels["sessions"] == [["dice_pool.ipynb", kernels["notebook"]]]
    assert kernels["kernels"] == [kernels["notebook"]]
    # its worker started with the page (static/ruleslab/kernel-worker.mjs), and the
    # kernel took over the interpreter started there: Pyodide was started once
    requested = page.watch.requests
    assert [u for u in requested if "/static/ruleslab/kernel-worker.mjs?v=" in u]
    assert len([u for u in requested if u.endswith("/static/pyodide/pyodide.asm.wasm")]) == 1
    took_over = "ruleslab: the kernel took over the interpreter started with the page"
    assert infos.count(took_over) == 1, infos
    # a first visit: nothing stored to bring up to date (lite/keep_notebooks.mjs), so the
    # deploy's manifest was not fetched before JupyterLab started
    assert [u for u in requested if u.endswith("static/ruleslab/published.json")] == []
    # its packages were fetched at once, each once, and unpacked by lite/wheel-unpack.mjs
    wheels = [
        u.rsplit("/", 1)[1] for u in requested if "/static/pyodide/" in u and u.endswith(".whl")
    ]
    assert len(wheels) == len(set(wheels)), wheels
    locks = [u for u in requested if u.endswith("/static/pyodide/pyodide-lock.json")]
    assert len(locks) == 1, locks  # (read once, for those fetches and for Pyodide)
    assert [w for w in wheels if w.startswith(("ipython-", "jedi-", "micropip-"))]
    unpacker = page.evaluate(
        EXECUTE_JS,
        "import pyodide._package_loader as loader\n"
        "print(hasattr(loader.unpack_buffer, '__wrapped__'))\n",
    )
    assert unpacker == "True\n", unpacker
    assert [w for w in page.watch.warnings if "ruleslab" in w] == []
    assert page.watch.offsite == []
    assert page.watch.errors == []


def test_health_track_fills_as_damage_is_entered(page, base_url, artifacts):
    """The Health & soak track (an anywidget view) draws filled boxes for entered damage."""
    from playwright.sync_api import expect

    calc = get("health")
    page.goto(base_url + embed_link(calc))
    expect(page.locator(".rl-calc-health").first).to_be_visible(timeout=KERNEL_TIMEOUT)
    boxes = page.locator('.rl-calc-health .rl-hl-box[data-filled="lethal"]')
    expect(page.locator(".rl-calc-health .rl-hl-box").first).to_be_visible(timeout=30_000)
    assert boxes.count() == 0
    values = dict(calc.defaults())
    values["lethal"] = "3"
    expected = _expected("health", values)
    type_into(page, "health", "lethal", "3")
    expect(boxes).to_have_count(3, timeout=30_000)
    total = page.locator(".rl-calc-health .rl-hl-box").count()
    assert total == expected.figure("total_levels").value
    page.screenshot(path=str(artifacts / "health-track.png"), full_page=True)
    assert page.watch.offsite == []
    assert page.watch.errors == []


def test_roll_it_button_shows_a_seeded_log(page, base_url, artifacts):
    """The Dice pool's "Roll it": a typed seed gives the engine's own log, replayably."""
    from playwright.sync_api import expect

    from ruleslab.calculators.dice_pool import roll_log

    calc = get("dice_pool")
    page.goto(base_url + embed_link(calc))
    root = page.locator(".rl-calc-dice_pool").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    seed = root.locator(".rl-roll-seed input").first
    seed.fill("2024")
    seed.press("Tab")
    root.locator(".rl-roll-button").first.click()
    log = root.locator('.rl-roll[data-seed="2024"] li')
    expected = roll_log(_expected("dice_pool", dict(calc.defaults())), 2024)
    expect(log).to_have_count(len(expected), timeout=30_000)
    assert [log.nth(i).inner_text() for i in range(log.count())] == list(expected)
    root.screenshot(path=str(artifacts / "dice_pool-roll.png"))
    assert page.watch.offsite == []
    assert page.watch.errors == []


def test_app_page_names_the_known_calculators_for_an_unknown_key(page, base_url):
    from playwright.sync_api import expect

    page.goto(base_url + "app.html?calculator=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    expect(page.locator("#title")).to_have_text("No such calculator")
    phase = page.locator("#phase")
    for calc in CALCULATORS:
        expect(phase).to_contain_text(calc.key)
    assert page.locator("img").count() == 0
    assert page.locator("#calculator").inner_html() == ""
    assert page.evaluate("() => window.ruleslab.worker === undefined")  # no Python started
    assert page.watch.offsite == []
    assert page.watch.errors == []


def test_an_open_calculator_keeps_working_without_the_server(browser, site_dir):
    """Once loaded, a calculator needs no server: stop it, change an input, get the result."""
    import threading

    from playwright.sync_api import expect

    from tools.build_site import make_server

    server = make_server(site_dir, host="127.0.0.1", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context()
    try:
        page = context.new_page()
        calc = get("dice_pool")
        page.goto(base + embed_link(calc))
        app = page
        expect(app.locator(".rl-calc-dice_pool").first).to_be_visible(timeout=KERNEL_TIMEOUT)
    finally:
        server.shutdown()
        server.server_close()
    try:
        values = dict(calc.defaults())
        values["dice"] = "9"
        want = _expected("dice_pool", values).figure("p_success").text
        type_into(app, "dice_pool", "dice", "9")
        expect(figure_at(app, "dice_pool", "p_success")).to_have_text(want, timeout=30_000)
    finally:
        context.close()


def test_app_page_takes_every_input_kind(page, base_url, artifacts):
    """A checkbox, a text area and a drop-down inside the Rules options, on the app page."""
    from playwright.sync_api import expect

    calc = get("dice_pool")
    page.goto(base_url + embed_link(calc))
    root = page.locator(".rl-calc-dice_pool").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    values = dict(calc.defaults())
    values["reroll_tens"] = True
    want = _expected("dice_pool", values).figure("mean").text
    root.locator(".rl-field-reroll_tens input[type=checkbox]").first.check()
    expect(figure_at(page, "dice_pool", "mean")).to_have_text(want, timeout=30_000)

    calc = get("compressed")
    page.goto(base_url + embed_link(calc))
    root = page.locator(".rl-calc-compressed").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    values = dict(calc.defaults())
    values["b_combatants"] = values["b_combatants"].replace("Dex 2", "Dex 4")
    assert values["b_combatants"] != calc.defaults()["b_combatants"]
    want = _expected("compressed", values).figure("pool_b").text
    area = root.locator(".rl-field-b_combatants textarea").first
    area.fill(values["b_combatants"])
    area.press("Tab")  # a text area commits when it loses focus
    expect(figure_at(page, "compressed", "pool_b")).to_have_text(want, timeout=30_000)

    fold = root.locator(".rl-options-heading .rl-fold-button").first
    fold.click()  # Rules options start folded
    expect(fold).to_have_attribute("aria-expanded", "true")
    values["initiative_tie"] = "coin"
    want = _expected("compressed", values).figure("p_tie").text
    tie = next(p for p in calc.params if p.name == "initiative_tie")
    label = dict(tie.choices)["coin"]
    root.locator(".rl-field-initiative_tie select").first.select_option(label=label)
    expect(figure_at(page, "compressed", "p_tie")).to_have_text(want, timeout=30_000)
    root.screenshot(path=str(artifacts / "compressed-inputs.png"))
    assert page.watch.offsite == []
    assert page.watch.errors == []


def test_app_page_says_so_when_python_cannot_start(browser, base_url):
    """A file Python needs is missing (broken deploy, dropped connection): a message, no hang."""
    from playwright.sync_api import expect

    context = browser.new_context()
    try:
        context.route("**/static/pyodide/app-lock.json", lambda route: route.abort())
        # (routes reach a dedicated worker's requests, not a shared worker's)
        context.add_init_script("delete window.SharedWorker")
        page = context.new_page()
        page.goto(base_url + embed_link(get("dice_pool")))
        expect(page.locator("#title")).to_have_text(
            "The calculator could not start", timeout=KERNEL_TIMEOUT
        )
        expect(page.locator("#phase")).to_contain_text("reloading the page may help")
        expect(page.locator("#loading progress")).to_be_hidden()
        assert page.locator(".rl-calc:not(.rl-prerender)").count() == 0  # (the static one stays)
    finally:
        context.close()
