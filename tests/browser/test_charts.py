"""Charts a GM reads, in Chromium: every calculator's charts at 1280×900 and 390×844.

* Each chart shows every bar's value, as the figures print it, and ticks on the
  probability axis; no two of its text labels overlap, every label lies inside
  the SVG's box, and the text is at least 12 px on screen at both widths.
* The legend appears only when a bar is highlighted, and says what the
  highlight means; the caption is the declared title.
* "Show as table" works by keyboard (Enter, Space), says whether it is open
  (``aria-expanded``), and its table's rows are the chart's bars.
* "Download CSV" saves the chart's data: the values as shown and the exact ones.
* axe-core finds nothing in a page's charts with a table open (when axe-core is
  installed in ``node_modules``, or its ``axe.min.js`` named by ``RULESLAB_AXE``).

Expected texts come from the engine's own bars, formatted by
:func:`ruleslab.explain.fmt_prob` (the figures' format) and written here by the
:mod:`csv` module, independently of the widget's code.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT, ROOT, charts_drawn_at_their_width

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import CALCULATORS, get  # noqa: E402
from ruleslab.declare import ChartView  # noqa: E402
from ruleslab.explain import fmt_prob  # noqa: E402

CHARTED = [c.key for c in CALCULATORS if any(isinstance(v, ChartView) for v in c.views)]
SIZES = ((1280, 900), (390, 844))

#: Per chart: its texts' boxes (on screen), the SVG's box, and each text's on-screen size.
_MEASURE = """(key) => [...document.querySelectorAll(`.rl-calc-${key} .rl-chart`)].map((f) => {
  const s = f.querySelector("svg");
  if (!s) return null;
  const box = s.getBoundingClientRect();
  const scale = box.width / s.viewBox.baseVal.width;
  const texts = [...s.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, cls: t.getAttribute("class"),
             left: r.left, right: r.right, top: r.top, bottom: r.bottom,
             px: parseFloat(getComputedStyle(t).fontSize) * scale };
  });
  return {
    svg: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
    texts,
    layout: s.dataset.layout,
    values: texts.filter((t) => t.cls === "rl-value").map((t) => t.text),
    ticks: texts.filter((t) => t.cls === "rl-tick").map((t) => t.text),
    labels: texts.filter((t) => t.cls === "rl-xtick").map((t) => t.text),
    bars: s.querySelectorAll(".rl-bar").length,
    caption: f.querySelector("figcaption").textContent,
    legend: f.querySelector(".rl-chart-legend")?.textContent ?? null,
    ariaLabel: s.getAttribute("aria-label"),
    role: s.getAttribute("role"),
  };
})"""


def _overlap(a: dict, b: dict) -> bool:
    tol = 0.5
    return (
        a["left"] < b["right"] - tol
        and b["left"] < a["right"] - tol
        and a["top"] < b["bottom"] - tol
        and b["top"] < a["bottom"] - tol
    )


def _inside(text: dict, box: dict, where: str) -> None:
    """``text``'s box lies inside the SVG's ``box`` (to half a pixel)."""
    tol = 0.5
    assert text["left"] >= box["left"] - tol, (where, text, box)
    assert text["right"] <= box["right"] + tol, (where, text, box)
    assert text["top"] >= box["top"] - tol, (where, text, box)
    assert text["bottom"] <= box["bottom"] + tol, (where, text, box)


def _expected(key: str):
    """(view, bars, highlight_from) for each chart of calculator ``key`` at its defaults."""
    calc = get(key)
    result = calc.compute()
    out = []
    for view in calc.views:
        if isinstance(view, ChartView):
            chart = view.chart(result)
            bars = [(str(label), float(p)) for label, p in chart.bars]
            out.append((view, bars, chart.highlight_from))
    return out


def _open(page, base_url: str, key: str):
    from playwright.sync_api import expect

    page.goto(base_url + f"app.html?calculator={key}")
    expect(page.locator(f".rl-calc-{key} .rl-chart").first).to_be_visible(timeout=KERNEL_TIMEOUT)
    expect(page.locator(f".rl-calc-{key} [data-figure]").first).to_be_visible(timeout=30_000)


@pytest.fixture(scope="module")
def chart_page(browser, base_url, watch):
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    page = context.new_page()
    page.watch = watch(page, base_url)  # type: ignore[attr-defined]
    yield page
    context.close()


@pytest.mark.parametrize("key", CHARTED)
def test_every_chart_is_labelled_readable_and_uncluttered(chart_page, base_url, artifacts, key):
    page = chart_page
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    _open(page, base_url, key)
    expected = _expected(key)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        charts_drawn_at_their_width(page, key)
        charts = page.evaluate(_MEASURE, key)
        assert len(charts) == len(expected)
        for chart, (view, bars, hi) in zip(charts, expected, strict=True):
            where = f"{key} {width}px {view.title!r}"
            if not bars:
                assert chart is None, where  # "Nothing to chart" instead of bare axes
                continue
            assert chart["caption"] == view.title, where
            assert chart["role"] == "img", where
            assert chart["ariaLabel"].startswith(view.title), where
            assert chart["bars"] == len(bars), where
            # each bar's value, as the figures print it, and its name
            assert chart["values"] == [fmt_prob(p) for _, p in bars], where
            assert chart["labels"] == [label for label, _ in bars], where
            # ticks at round percentages up to at least the largest bar
            ticks = [float(t.removesuffix(" %")) for t in chart["ticks"]]
            assert len(ticks) >= 2, where
            assert ticks[0] == 0, where
            assert ticks == sorted(ticks), where
            # the legend only when something is highlighted, saying what
            marked = hi is not None and 0 <= hi < len(bars)
            assert chart["legend"] == (view.highlight if marked else None), where
            for t in chart["texts"]:
                # 12 px as drawn (the SVG fits its box to a fraction of a pixel: 0.1 %)
                assert t["px"] >= 12 * 0.999, (where, t)
                _inside(t, chart["svg"], where)
            texts = chart["texts"]
            for i, a in enumerate(texts):
                for b in texts[i + 1 :]:
                    assert not _overlap(a, b), (where, a["text"], b["text"])
        page.screenshot(path=str(artifacts / f"charts-{key}-{width}.png"), full_page=True)
    assert page.watch.errors == [], page.watch.errors


def test_a_full_bar_keeps_its_label_at_the_narrowest_width(chart_page, base_url):
    """A 100 % bar (a dice pool of 0 dice: 0 successes, certainly) at 280 px: its
    label is whole, inside the SVG."""
    page = chart_page
    page.set_viewport_size({"width": 300, "height": 844})
    page.goto(base_url + "app.html?calculator=dice_pool&dice=0")
    page.locator(".rl-calc-dice_pool .rl-chart svg").first.wait_for(timeout=KERNEL_TIMEOUT)
    charts_drawn_at_their_width(page, "dice_pool")
    (chart,) = page.evaluate(_MEASURE, "dice_pool")
    assert chart["values"] == ["100 %"]
    assert chart["ticks"][-1] == "100 %"
    box = chart["svg"]
    assert box["right"] - box["left"] <= 281
    for t in chart["texts"]:
        _inside(t, box, "a 100 % bar at 280 px")


def test_the_table_opens_by_keyboard_and_holds_the_bars(chart_page, base_url):
    page = chart_page
    page.set_viewport_size({"width": 1280, "height": 900})
    _open(page, base_url, "chimera")
    for i, (view, bars, hi) in enumerate(_expected("chimera")):
        figure = page.locator(".rl-calc-chimera .rl-chart").nth(i)
        toggle = figure.locator("button.rl-chart-toggle")
        table = figure.locator("table.rl-chart-table")
        assert toggle.get_attribute("aria-expanded") == "false"
        assert table.is_hidden()
        assert toggle.get_attribute("aria-controls") == table.get_attribute("id")
        toggle.focus()
        page.keyboard.press("Enter")
        assert toggle.get_attribute("aria-expanded") == "true"
        assert table.is_visible()
        assert table.locator("caption").text_content() == view.title
        heads = table.locator("thead th").all_text_contents()
        marked = hi is not None and 0 <= hi < len(bars)
        assert heads == [view.x_label, "Probability"] + ([view.highlight] if marked else [])
        rows = table.locator("tbody tr")
        assert rows.count() == len(bars)
        for r, (label, p) in enumerate(bars):
            row = rows.nth(r)
            assert row.locator("th").text_content() == label
            cells = row.locator("td").all_text_contents()
            assert cells[0] == fmt_prob(p)
            if marked:
                assert hi is not None
                assert cells[1] == ("yes" if r >= hi else "")
        page.keyboard.press("Space")  # the focus stayed on the button
        assert toggle.get_attribute("aria-expanded") == "false"
        assert table.is_hidden()


#: The compressed-combat charts' files, named after their titles.
FILES = (
    "success-margin-side-a-side-b.csv",
    "health-levels-side-a-loses.csv",
    "health-levels-side-b-loses.csv",
)


def test_download_csv_holds_the_shown_and_the_exact_values(chart_page, base_url, tmp_path):
    page = chart_page
    page.set_viewport_size({"width": 1280, "height": 900})
    _open(page, base_url, "compressed")
    for i, (view, bars, hi) in enumerate(_expected("compressed")):
        button = page.locator(".rl-calc-compressed .rl-chart").nth(i).locator("button.rl-chart-csv")
        with page.expect_download() as info:
            button.click()
        download = info.value
        path = Path(tmp_path) / f"{i}.csv"
        download.save_as(str(path))
        data = path.read_bytes()
        assert data.startswith(b"\xef\xbb\xbf")  # UTF-8, said so for spreadsheets
        text = data[3:].decode("utf-8")
        marked = hi is not None and 0 <= hi < len(bars)
        want = io.StringIO()
        writer = csv.writer(want, lineterminator="\r\n")
        head = [view.x_label, "Probability (as shown)", "Probability (exact)"]
        writer.writerow(head + ([f"Highlighted: {view.highlight}"] if marked else []))
        for r, (label, p) in enumerate(bars):
            extra = ["yes" if hi is not None and r >= hi else ""] if marked else []
            writer.writerow([label, fmt_prob(p), repr(p), *extra])
        assert text == want.getvalue(), view.title
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert [float(r[2]) for r in rows[1:]] == [p for _, p in bars]  # exact, not rounded
        assert download.suggested_filename == FILES[i]


#: axe-core's script: from npm (``node_modules``), or where ``RULESLAB_AXE`` says.
AXE = Path(os.environ.get("RULESLAB_AXE", ROOT / "node_modules" / "axe-core" / "axe.min.js"))


def test_a_chart_page_passes_axe(chart_page, base_url):
    if not AXE.is_file():
        pytest.skip("axe-core is not installed in node_modules")
    page = chart_page
    page.set_viewport_size({"width": 1280, "height": 900})
    _open(page, base_url, "dice_pool")
    page.locator(".rl-calc-dice_pool button.rl-chart-toggle").first.click()
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => {
          const r = await axe.run(".rl-chart");
          return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`);
        }"""
    )
    assert result == []


#: Render the bar chart module ``esm`` with a stand-in model holding ``first``, in a box
#: 500 px wide that is not on the page; put it on the page; take it off, change the model to
#: ``second``, put it back. What is drawn at each step (value labels; the width drawn at), and
#: how often the box's width or style was read while it was off the page.
_LIFECYCLE = """async ([esm, first, second]) => {
  // reads of a box's width or style while it is off the page (each lays the page out)
  let offPageReads = 0;
  const style = window.getComputedStyle;
  window.getComputedStyle = function (e, ...rest) {
    if (!e.isConnected) offPageReads += 1;
    return style.call(this, e, ...rest);
  };
  const clientWidth = Object.getOwnPropertyDescriptor(Element.prototype, "clientWidth");
  Object.defineProperty(Element.prototype, "clientWidth", {
    configurable: true,
    get() {
      if (!this.isConnected) offPageReads += 1;
      return clientWidth.get.call(this);
    },
  });
  const url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
  const module = await import(url);
  let state = first;
  const handlers = {};
  const model = {
    get: (name) => state[name],
    on: (event, f) => { (handlers[event] = handlers[event] || []).push(f); },
    off: () => {},
  };
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const drawn = (el) => ({
    values: [...el.querySelectorAll("svg text.rl-value")].map((t) => t.textContent),
    width: el.dataset.drawnWidth || null,
  });
  const el = document.createElement("div");
  el.style.width = "500px";
  module.default.render({ model, el });
  const offPage = drawn(el);
  document.body.appendChild(el);
  await frames();
  const onPage = drawn(el);
  el.remove();
  state = second;
  for (const f of handlers["change:bars"] || []) f();
  await frames();
  const changedOff = drawn(el);
  document.body.appendChild(el);
  await frames();
  return { offPage, onPage, changedOff, back: drawn(el), offPageReads };
}"""


def test_a_chart_is_drawn_again_on_the_page_and_a_change_made_off_it_when_it_is_back(browser):
    """A chart drawn off the page (a view is drawn before it is put there) is drawn at the
    desktop width, its box's width unread (reading it would lay the page out); once on the
    page it is drawn again at its box's width, and a change that comes while it is off the
    page is drawn again at that width when it is back."""
    from ruleslab_widgets.chart import BarChart

    first = [("0", 0.25), ("1", 0.75)]
    second = [("0", 0.5), ("1", 0.125), ("2", 0.375)]
    states = [BarChart(title="T", x_label="k", bars=bars).get_state() for bars in (first, second)]
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><html><body></body></html>")
        got = page.evaluate(_LIFECYCLE, [states[0]["_esm"], *states])
    finally:
        page.close()
    shown = [fmt_prob(p) for _, p in first]
    changed = [fmt_prob(p) for _, p in second]
    assert got["offPage"] == {"values": shown, "width": "560"}
    assert got["onPage"] == {"values": shown, "width": "500"}
    assert got["changedOff"] == {"values": changed, "width": "560"}
    assert got["back"] == {"values": changed, "width": "500"}
    assert got["offPageReads"] == 0
