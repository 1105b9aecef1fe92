"""The "Copy link" control: a link to the app page with the calculator's inputs as they are.

The Python side holds the link's query (``calculator=<key>&<field>=<value>…``,
built by :meth:`ruleslab_widgets.view.CalculatorView.share_query`) and the page it
opens (``page``: the calculator's own page, :func:`calculator_page`, whose
pre-rendered form and figures come with its first response; the query's leading
``calculator=<key>`` is then left out, the page being that calculator's); the front
end turns them into an address and copies it. The same control serves the app page
and a notebook, so the address is worked out in the browser from where the
widget is drawn:

* in JupyterLite (a notebook), the page's ``jupyter-config-data`` element names
  the site's root (``data-jupyter-lite-root="..``" in ``lab/index.html``), and
  the app pages are there;
* on an app page (no such element), the app pages are beside the page;
* in a Jupyter server that is not the site (the element without a lite root),
  the link stays relative (``lifting.html?…``): it works once put after the
  site's address.

The link is also shown as text, selected on focus, so it can be copied by hand
where the clipboard cannot be written (an insecure origin, an iframe without
``allow="clipboard-write"``). Nothing is written as HTML: every text goes
through ``textContent`` or an input's ``value``.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import traitlets

from ruleslab_widgets.module_widget import ModuleWidget

__all__ = ["ShareLink", "calculator_page"]

_ESM = r"""
function siteRoot() {
  const config = document.getElementById("jupyter-config-data");
  if (!config) return new URL("./", window.location.href);  // the app page itself
  const root = config.getAttribute("data-jupyter-lite-root");
  if (root === null) return null;  // a Jupyter server: not the ruleslab site
  return new URL(root.endsWith("/") ? root : root + "/", window.location.href);
}
function address(query, extra, page) {
  const root = siteRoot();
  if (extra) query = query ? `${query}&${extra}` : extra;
  // (a calculator's own page is that calculator's: the query need not name it)
  if (page !== "app.html") query = query.replace(/^calculator=[^&]*&?/, "");
  const relative = page + (query ? "?" + query : "");
  return root ? new URL(relative, root).href : relative;
}
function render({ model, el }) {
  const row = document.createElement("div");
  row.className = "rl-share";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "rl-share-copy jupyter-button";
  button.textContent = "Copy link";
  button.title = "Copy a link that opens this calculator with these inputs";
  const box = document.createElement("input");
  box.type = "text";
  box.readOnly = true;
  box.className = "rl-share-link";
  box.setAttribute("aria-label", "Link to this calculator with these inputs");
  const note = document.createElement("span");
  note.className = "rl-share-note";
  note.setAttribute("role", "status");
  const update = () => {
    box.value = address(model.get("query"), model.get("sweep"), model.get("page"));
    note.textContent = "";
  };
  button.addEventListener("click", async () => {
    const url = address(model.get("query"), model.get("sweep"), model.get("page"));
    box.value = url;
    try {
      await navigator.clipboard.writeText(url);
      note.textContent = "Link copied.";
    } catch (err) {
      box.focus();
      box.select();
      note.textContent =
        "This page may not use the clipboard: the link is selected, copy it (Ctrl+C or \u2318C).";
    }
  });
  box.addEventListener("focus", () => box.select());
  model.on("change:query", update);
  model.on("change:sweep", update);
  model.on("change:page", update);
  update();
  row.append(button, box, note);
  el.replaceChildren(row);
  return () => {
    model.off("change:query", update);
    model.off("change:sweep", update);
    model.off("change:page", update);
  };
}
export default { render };
"""

_CSS = """
.rl-share { display: flex; align-items: center; gap: 0.5em; flex-wrap: wrap; margin: 0.3em 0; }
.rl-share .rl-share-link { flex: 1 1 18em; min-width: 0; max-width: 44em;
  font-family: ui-monospace, monospace; font-size: 0.85em; padding: 0.25em 0.4em;
  color: var(--jp-widgets-input-color, inherit);
  background: var(--jp-widgets-input-background-color, transparent);
  border: 1px solid var(--jp-widgets-input-border-color, #9e9e9e); }
.rl-share .rl-share-note { color: var(--rl-muted, #474747); font-size: 0.9em; }
"""


def calculator_page(key: str) -> str:
    """Calculator ``key``'s own app page, relative to the site's root (``lifting.html``):
    the app page with that calculator fixed and its pre-rendered form and figures in
    its first response (``tools.make_content.app_page_html``)."""
    return f"{quote(key)}.html"


class ShareLink(ModuleWidget):
    """A "Copy link" button and the link's text; ``query`` is the link's query string,
    ``sweep`` the sweep's part (``sweep.field=…&sweep.range=…``, "" for none:
    :class:`~ruleslab_widgets.sweep_panel.SweepPanel` sets it while it is open),
    appended to it; ``page`` the app page it opens, relative to the site's root:
    ``app.html`` (the query names the calculator) or a calculator's own page
    (:func:`calculator_page`, the query's ``calculator=<key>`` left out)."""

    _esm = _ESM
    _css = _CSS
    query = traitlets.Unicode("").tag(sync=True)
    sweep = traitlets.Unicode("").tag(sync=True)
    page = traitlets.Unicode("app.html").tag(sync=True)

    def link_query(self) -> str:
        """The whole query the link carries: ``query``, then ``sweep`` if any."""
        return "&".join(part for part in (self.query, self.sweep) if part)

    def link(self) -> str:
        """The link relative to the site's root, as the front end writes it."""
        query = self.link_query()
        if self.page != "app.html":
            query = re.sub(r"^calculator=[^&]*&?", "", query)
        return self.page + (f"?{query}" if query else "")
