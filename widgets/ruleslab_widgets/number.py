"""A number field with stepper buttons and arrow keys (an anywidget view).

It holds its text as typed (``value``: the form reads every number field as
text, through :meth:`ruleslab.Param.parse`), and draws a label, a text box
and "−"/"+" buttons. The text box commits on Enter or when it loses focus, as
an ipywidgets ``Text`` with ``continuous_update=False`` does. A button, or
the Up/Down key in the box, asks Python for one step
(:meth:`NumberField.step`): the declaration's :meth:`~ruleslab.IntParam.stepped`
works out the text one step away within the field's range, and it is set as
``value``, exactly as if typed, so the form reads it through the same path.
Where there is no step to take (at the bound, or text the field does not read),
the text stays as typed. Nothing is worked out in the browser: the page never
has to read numbers the way Python does.

The buttons are disabled at the bounds (``can_decrease``/``can_increase``,
kept by Python) and carry accessible labels ("Decrease Strength by 1"); the
box is a ``spinbutton`` with the range in its ARIA attributes and a numeric
keyboard on phones (``inputmode``). All text goes through ``textContent`` and
attributes, never HTML.
"""

from __future__ import annotations

from typing import Any

import traitlets

from ruleslab import IntParam, NumberParam
from ruleslab_widgets.module_widget import ModuleWidget

__all__ = ["NumberField"]

_ESM = r"""
let counter = 0;
function render({ model, el }) {
  const id = `rl-number-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  el.classList.add("widget-inline-hbox", "jupyter-widget-inline-hbox", "widget-text",
                   "jupyter-widget-text", "rl-number");
  const label = document.createElement("label");
  label.className = "widget-label jupyter-widget-label rl-number-label";
  label.htmlFor = id;
  const input = document.createElement("input");
  input.type = "text";
  input.id = id;
  input.className = "widget-input rl-number-input";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.setAttribute("role", "spinbutton");
  const button = (text, direction) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "jupyter-button rl-step " + (direction > 0 ? "rl-step-up" : "rl-step-down");
    b.textContent = text;
    b.addEventListener("click", () => step(direction));
    return b;
  };
  const down = button("\u2212", -1);
  const up = button("+", 1);
  let dirty = false;  // typed in the box and not yet sent
  const refresh = () => {
    if (dirty) { down.disabled = false; up.disabled = false; return; }
    down.disabled = !model.get("can_decrease");
    up.disabled = !model.get("can_increase");
  };
  const labels = () => {
    const name = model.get("description");
    const by = model.get("step_text");
    label.textContent = name;
    input.placeholder = model.get("placeholder");
    input.inputMode = model.get("input_mode");
    input.setAttribute("aria-valuemin", model.get("minimum"));
    input.setAttribute("aria-valuemax", model.get("maximum"));
    down.setAttribute("aria-label", `Decrease ${name} by ${by}`);
    up.setAttribute("aria-label", `Increase ${name} by ${by}`);
    down.title = down.getAttribute("aria-label");
    up.title = up.getAttribute("aria-label");
  };
  const show = () => {
    input.value = model.get("value");
    input.setAttribute("aria-valuetext", input.value);
    dirty = false;
    refresh();
  };
  const commit = () => {
    if (!dirty) return;
    dirty = false;
    model.set("value", input.value);
    model.save_changes();
    input.setAttribute("aria-valuetext", input.value);
    refresh();
  };
  function step(direction) {
    // the typed text, if any, is the one to step from (Python sets the result as typed)
    model.send({ step: direction, text: dirty ? input.value : null });
    dirty = false;
  }
  input.addEventListener("input", () => { dirty = true; refresh(); });
  input.addEventListener("change", commit);  // focus left the box
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") commit();
    else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      step(event.key === "ArrowUp" ? 1 : -1);
    }
  });
  const names = ["description", "placeholder", "step_text", "input_mode", "minimum", "maximum"];
  for (const n of names) model.on(`change:${n}`, labels);
  model.on("change:value", show);
  model.on("change:can_decrease", refresh);
  model.on("change:can_increase", refresh);
  labels();
  show();
  el.replaceChildren(label, down, input, up);
  return () => {
    for (const n of names) model.off(`change:${n}`, labels);
    model.off("change:value", show);
    model.off("change:can_decrease", refresh);
    model.off("change:can_increase", refresh);
  };
}
export default { render };
"""

_CSS = """
.rl-number { align-items: center; gap: 0; margin: var(--jp-widgets-margin, 2px); }
.rl-number .rl-number-label { width: auto; }
.rl-number .rl-number-input { min-width: 3em; text-align: right; }
.rl-number .rl-step { flex: 0 0 auto; width: 2.2em; min-width: 2.2em; padding: 0;
  height: var(--jp-widgets-inline-height, 28px); margin: 0; font-size: 1.05em;
  line-height: 1; }
.rl-number .rl-step-down { border-radius: 3px 0 0 3px; }
.rl-number .rl-step-up { border-radius: 0 3px 3px 0; }
.rl-number .rl-step:disabled { opacity: 0.45; cursor: default; }
"""


def _aria(x: float) -> str:
    """A bound for ``aria-valuemin``/``aria-valuemax``: a plain number (1000000000000,
    0.25), as ARIA requires: no thousands separators."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _plain(x: float) -> str:
    """A bound or step for a label: 0.25, 10, 1,000,000,000,000 (never 1e+12)."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,}"


class NumberField(ModuleWidget):
    """A whole-number or decimal field of the form: ``value`` is its text as typed."""

    _esm = _ESM
    _css = _CSS
    value = traitlets.Unicode("").tag(sync=True)
    description = traitlets.Unicode("").tag(sync=True)
    placeholder = traitlets.Unicode("").tag(sync=True)
    step_text = traitlets.Unicode("1").tag(sync=True)
    input_mode = traitlets.Unicode("decimal").tag(sync=True)
    minimum = traitlets.Unicode("").tag(sync=True)
    maximum = traitlets.Unicode("").tag(sync=True)
    can_decrease = traitlets.Bool(True).tag(sync=True)
    can_increase = traitlets.Bool(True).tag(sync=True)

    def __init__(self, param: IntParam | NumberParam, **kwargs: Any) -> None:
        self._param = param
        whole = isinstance(param, IntParam)
        mode = ("numeric" if whole else "decimal") if param.minimum >= 0 else "text"
        super().__init__(
            step_text=_plain(param.step),
            input_mode=mode,  # phones: digits (a minus sign needs the full keyboard)
            minimum=_aria(param.minimum),
            maximum=_aria(param.maximum),
            **kwargs,
        )
        self.observe(self._bounds, names="value")
        self.on_msg(self._on_message)
        self._bounds()

    def step(self, direction: int, text: str | None = None) -> None:
        """One press of "+" (``direction`` 1) or "−" (-1), or Up/Down in the box.

        ``text``: what the box holds if the GM typed there without committing it
        (the step starts from it); else the step starts from ``value``. The result
        is set as typed text; with no step to take, the typed text is kept.
        """
        start = self.value if text is None else text
        stepped = self._param.stepped(start, direction)
        new = start if stepped is None else stepped
        if new == self.value:
            self.send_state("value")  # the box may show other text: show this again
        else:
            self.value = new

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("step") in (1, -1):
            text = content.get("text")
            self.step(int(content["step"]), text if isinstance(text, str) else None)

    def _bounds(self, _change: Any = None) -> None:
        self.can_decrease = self._param.stepped(self.value, -1) is not None
        self.can_increase = self._param.stepped(self.value, 1) is not None
