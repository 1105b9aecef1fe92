"""The "Copy link" control: a link to the app page with the calculator's inputs as they are.

The Python side holds only the link's query (``calculator=<key>&<field>=<value>…``,
built by :meth:`ruleslab_widgets.view.CalculatorView.share_query`); the front
end turns it into an address and copies it. The same control serves the app page
and a notebook, so the address is worked out in the browser from where the
widget is drawn:

* in JupyterLite (a notebook), the page's ``jupyter-config-data`` element names
  the site's root (``data-jupyter-lite-root="..``" in ``lab/index.html``), and
  the app page is ``app.html`` there;
* on the app page (no such element), ``app.html`` is beside the page;
* in a Jupyter server that is not the site (the element without a lite root),
  the link stays relative (``app.html?…``): it works once put after the
  site's address.

The link is also shown as text, selected on focus, so it can be copied by hand
where the clipboard cannot be written (an insecure origin, an iframe without
``allow="clipboard-write"``). Nothing is written as HTML: every text goes
through ``textContent`` or an input's ``value``.
"""

from __future__ import annotations

import traitlets

from ruleslab_widgets.module_widget import ModuleWidget

__all__ = ["ShareLink"]

_ESM = r"""
function siteRoot() {
  const config = document.getElementById("jupyter-config-data");
  if (!config) return new URL("./", window.location.href);  // the app page itself
  const root = config.getAttribute("data-jupyter-lite-root");
  if (root === null) return null;  // a Jupyter server: not the ruleslab site
  return new URL(root.endsWith("/") ? root : root + "/", window.location.href);
}
function address(query, extra) {
  const root = siteRoot();
  if (extra) query = query ? `${query}&${extra}` : extra;
  const relative = "app.html" + (query ? "?" + query : "");
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
    box.value = address(model.get("query"), model.get("sweep"));
    note.textContent = "";
  };
  button.addEventListener("click", async () => {
    const url = address(model.get("query"), model.get("sweep"));
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
  update();
  row.append(button, box, note);
  el.replaceChildren(row);
  return () => { model.off("change:query", update); model.off("change:sweep", update); };
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


class ShareLink(ModuleWidget):
    """A "Copy link" button and the link's text; ``query`` is the link's query string,
    ``sweep`` the sweep's part (``sweep.field=…&sweep.range=…``, "" for none:
    :class:`~ruleslab_widgets.sweep_panel.SweepPanel` sets it while it is open),
    appended to it."""

    _esm = _ESM
    _css = _CSS
    query = traitlets.Unicode("").tag(sync=True)
    sweep = traitlets.Unicode("").tag(sync=True)

    def link_query(self) -> str:
        """The whole query the link carries: ``query``, then ``sweep`` if any."""
        return "&".join(part for part in (self.query, self.sweep) if part)
