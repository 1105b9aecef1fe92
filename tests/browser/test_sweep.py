"""A figure across a range on the app page ("Across a range"), with Chromium.

* On two calculators (falling, dice_pool) a GM opens the panel, picks the input,
  the range and the figure, and gets a line chart whose points and table hold the
  values computed here on CPython, point by point, by the calculator itself;
* "Copy link" carries the sweep; the link opened in a new page draws the same line;
* at phone width (390×844) and in both themes (dice_pool: two chances and a
  mean, 41 points: a cheap calculator, so the page's 2 s time limit never cuts
  it), no text of the chart leaves it, no two tick labels meet and nothing
  widens the page; axe-core finds nothing.
"""

from __future__ import annotations

import pytest

from tests.browser.axe_check import axe_violations
from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import get  # noqa: E402

LINE_JS = """(root) => [...root.querySelectorAll('.rl-line-chart')].map((f) => ({
  caption: f.querySelector('figcaption').textContent,
  role: f.querySelector('svg').getAttribute('role'),
  label: f.querySelector('svg').getAttribute('aria-label'),
  lines: [...f.querySelectorAll('svg g.rl-line')].map((g) =>
    [...g.querySelectorAll('.rl-line-marker')].map((m) => [m.dataset.x, m.dataset.text])),
  legend: [...f.querySelectorAll('.rl-line-legend li')].map((li) => li.textContent),
}))"""

BOXES_JS = """(f) => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
  const s = f.querySelector('svg');
  return { svg: box(s), figure: box(f),
    texts: [...s.querySelectorAll('text')].map((t) => ({ ...box(t), cls: t.getAttribute('class'),
                                                         text: t.textContent })),
    parts: [...f.querySelectorAll('.rl-line-legend li, .rl-line-readout, .rl-chart-tools')]
      .map(box) };
}"""


def _expected(key: str, field: str, xs: list[int], figure: str, **inputs: object) -> list[str]:
    """The figure's text at each point: the calculator run on its own at that point."""
    calc = get(key)
    return [calc.compute(**inputs, **{field: x}).figure(figure).text for x in xs]


def _open(page, url: str, key: str):
    from playwright.sync_api import expect

    page.goto(url)
    root = page.locator(f".rl-calc-{key}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    expect(page.locator(f".rl-calc-{key} [data-figure]").first).to_be_visible(timeout=30_000)
    return root


def _set(root, name: str, text: str) -> None:
    box = root.locator(f".rl-sweep-{name} input").first
    box.fill(text)
    box.press("Enter")


def _wait_points(page, key: str, count: int) -> None:
    page.wait_for_function(
        """([key, n]) => {
          const g = document.querySelector(`.rl-calc-${key} .rl-line-chart svg g.rl-line`);
          return !!g && g.querySelectorAll('.rl-line-marker').length === n; }""",
        arg=[key, count],
        timeout=60_000,
    )


CASES = [
    # key, field, (from, to, step), figure to tick (None: the default), x values, form inputs
    ("falling", "height_m", ("0", "30", "5"), "p_lethal", [0, 5, 10, 15, 20, 25, 30], {}),
    ("dice_pool", "dice", ("0", "12", "2"), None, [0, 2, 4, 6, 8, 10, 12], {"difficulty": "2"}),
]


@pytest.mark.parametrize(("key", "field", "span", "figure", "xs", "form"), CASES)
def test_a_sweep_draws_the_calculator_point_by_point_and_its_link_reopens_it(
    browser, base_url, watch, artifacts, key, field, span, figure, xs, form
):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url[:-1])
    page = context.new_page()
    page.watch = watch(page, base_url)
    root = _open(page, base_url + f"app.html?calculator={key}", key)
    for name, text in form.items():
        box = root.locator(f".rl-field-{name} input").first
        box.fill(text)
        box.press("Enter")
    fold = root.locator(".rl-sweep .rl-fold-button").first
    expect(fold).to_contain_text("Across a range")
    expect(fold).to_have_attribute("aria-expanded", "false")
    fold.click()
    expect(fold).to_have_attribute("aria-expanded", "true")
    label = {"height_m": "Height of the fall (m)", "dice": "Dice"}[field]  # as the form shows it
    root.locator(".rl-sweep-field select").first.select_option(label=label)
    _set(root, "start", span[0])
    _set(root, "stop", span[1])
    _set(root, "step", span[2])
    shown = figure or get(key).compute().figures()[0].key
    if figure is not None:
        for box in root.locator(".rl-sweep-figures input[type=checkbox]").all():
            box.set_checked(False)
        root.locator(f".rl-sweep-figure-{figure} input").first.check()
    _wait_points(page, key, len(xs))
    inputs = {k: int(v) for k, v in form.items()}
    want = _expected(key, field, xs, shown, **inputs)
    (chart,) = page.evaluate(LINE_JS, root.element_handle())
    assert chart["role"] == "img"
    assert chart["lines"] == [[[str(x), t] for x, t in zip(xs, want, strict=True)]]
    label = get(key).compute().figure(shown).label
    assert chart["legend"] == [label]
    assert chart["label"].startswith(f"{label} by ")
    # the table, opened by keyboard: the same values
    toggle = root.locator(".rl-line-chart .rl-chart-toggle").first
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    table = root.locator(".rl-line-chart table").first
    expect(table).to_be_visible()
    cells = table.locator("tbody td").all_text_contents()
    assert cells == want
    assert table.locator("tbody th").all_text_contents() == [str(x) for x in xs]
    # the readout: the slider reads a point
    slider = root.locator(".rl-line-slider").first
    slider.focus()
    page.keyboard.press("End")
    expect(root.locator(".rl-line-readout").first).to_contain_text(want[-1])
    page.screenshot(path=str(artifacts / f"sweep-{key}.png"))
    assert axe_violations(page) == []
    # the link: copied, opened in a new page, the same line
    root.locator(".rl-share-copy").first.click()
    link = page.evaluate("() => navigator.clipboard.readText()")
    step = "" if span[2] == "1" else f":{span[2]}"
    assert f"sweep.field={field}&sweep.range={span[0]}:{span[1]}{step}" in link
    assert ("sweep.figures=" in link) == (figure is not None)
    other = context.new_page()
    other.watch = watch(other, base_url)
    again = _open(other, link, key)
    expect(again.locator(".rl-sweep .rl-fold-button").first).to_have_attribute(
        "aria-expanded", "true"
    )
    _wait_points(other, key, len(xs))
    assert other.evaluate(LINE_JS, again.element_handle()) == [chart]
    for name, p in (("the first page", page), ("the link's page", other)):
        assert p.watch.offsite == [], name
        assert p.watch.errors == [], name
    context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_the_line_chart_fits_at_phone_width_in_both_themes(
    browser, base_url, watch, artifacts, theme, width, height
):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.watch = watch(page, base_url)
    query = (
        "calculator=dice_pool&sweep.field=dice&sweep.range=0:40"
        f"&sweep.figures=p_success,p_botch,mean&theme={theme}"
    )
    root = _open(page, base_url + f"app.html?{query}", "dice_pool")
    _wait_points(page, "dice_pool", 41)
    page.wait_for_function(
        """() => { const f = [...document.querySelectorAll('.rl-line-chart')];
                   return f.length === 2 && f.every((c) => c.querySelector('svg g.rl-line')); }""",
        timeout=30_000,
    )
    figures = root.locator(".rl-line-chart").all()
    for f in figures:
        f.scroll_into_view_if_needed()
        b = f.evaluate(BOXES_JS)
        svg = b["svg"]
        assert svg["right"] <= width + 0.5, b
        for t in b["texts"]:
            assert t["left"] >= svg["left"] - 0.5, t
            assert t["right"] <= svg["right"] + 0.5, t
            assert t["top"] >= svg["top"] - 0.5, t
            assert t["bottom"] <= svg["bottom"] + 0.5, t
        ticks = [t for t in b["texts"] if t["cls"] in ("rl-xtick", "rl-tick")]
        for i, a in enumerate(ticks):
            for c in ticks[i + 1 :]:
                apart = (
                    a["right"] <= c["left"] + 0.5
                    or c["right"] <= a["left"] + 0.5
                    or a["bottom"] <= c["top"] + 0.5
                    or c["bottom"] <= a["top"] + 0.5
                )
                assert apart, (a, c)
        for part in b["parts"]:
            assert part["right"] <= width + 0.5, part
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    (chance, number) = page.evaluate(LINE_JS, root.element_handle())
    assert len(chance["legend"]) == 2
    assert len(number["legend"]) == 1
    # distinct lines: colour and dash differ
    looks = page.evaluate(
        """() => [...document.querySelectorAll('.rl-line-chart')][0]
          .querySelectorAll('g.rl-line').values().map((g) => [getComputedStyle(g).color,
            g.querySelector('path').getAttribute('stroke-dasharray')]).toArray()"""
    )
    assert len({c for c, _ in looks}) == 2
    assert len({d for _, d in looks}) == 2
    root.locator(".rl-sweep").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"sweep-dice-pool-{width}-{theme}.png"))
    assert axe_violations(page) == []
    assert page.watch.errors == []
    context.close()
