"""The app page's Python side (``ruleslab_widgets.app_page``) on CPython, a list as channel.

What the page's widget manager relies on: every comm is opened before any
message is sent on it or names it (a parent's state refers only to children already opened),
the display comes last, a change from the page reaches the calculator and
its new figures come back as ``update`` messages, and no echo doubles them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

import comm
from ipywidgets.widgets import widget as ipywidget

from ruleslab.calculators import CALCULATORS
from ruleslab_widgets import app_page

MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]+)")


def flat(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages ``sent`` to a page, each ``batch`` (a calculator's build) unpacked."""
    out: list[dict[str, Any]] = []
    for message in sent:
        out.extend(message["messages"] if message["type"] == "batch" else [message])
    return out


@pytest.fixture
def channel(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Messages sent to the page; the comm factory and echo setting are restored afterwards."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(comm, "create_comm", comm.create_comm)
    monkeypatch.setattr(ipywidget, "JUPYTER_WIDGETS_ECHO", ipywidget.JUPYTER_WIDGETS_ECHO)
    monkeypatch.setattr(app_page, "_default", None)
    monkeypatch.setattr(app_page, "_current", None)
    app_page.install(sent.append)
    return sent


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_opens_come_before_any_reference_and_the_display_comes_last(channel, key):
    view = app_page.start(key)
    assert [m["type"] for m in channel] == ["batch"]  # (the build, sent at once)
    channel[:] = flat(channel)
    opened: set[str] = set()
    for message in channel[:-1]:
        refs = set(MODEL_REF.findall(repr(message["data"])))
        assert refs <= opened, f"{key}: refers to unopened models {refs - opened}"
        if message["type"] == "comm_open":
            assert message["target_name"] == "jupyter.widget"
            assert message["metadata"]["version"].startswith("2.")
            opened.add(message["comm_id"])
        else:  # a change made while building (classes, the first result)
            assert message["type"] == "comm_msg", message["type"]
            assert message["comm_id"] in opened
    assert channel[-1] == {"type": "display", "model_id": view.model_id}
    assert view.model_id in opened


def _shown_models(sent: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """What a page's widget manager draws once it has handled ``sent`` in order (opens,
    then updates applied to them): the models reached from the display's, each its class
    and final state, a reference to a model (a fresh uuid per build) made its place in
    the order they are reached. A reference to a model never opened is a ``KeyError``."""
    states: dict[str, dict[str, Any]] = {}
    shown = ""
    for message in flat(sent):
        if message["type"] == "comm_open":
            states[message["comm_id"]] = dict(message["data"]["state"])
        elif message["type"] == "comm_msg" and message["data"].get("method") == "update":
            states[message["comm_id"]].update(message["data"]["state"])
        elif message["type"] == "display":
            shown = message["model_id"]
    place: dict[str, int] = {}
    order: list[str] = []

    def reach(model_id: str) -> None:
        if model_id in place:
            return
        place[model_id] = len(place)
        order.append(model_id)
        for value in states[model_id].values():
            for ref in MODEL_REF.findall(repr(value)):
                reach(ref)

    reach(shown)

    def canon(value: Any) -> Any:
        if isinstance(value, str):
            return MODEL_REF.sub(lambda m: f"IPY_MODEL_#{place[m.group(1)]}", value)
        if isinstance(value, dict):
            return {k: canon(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [canon(v) for v in value]
        return value

    return [(states[i]["_model_name"], canon(states[i])) for i in order]


def _as_made(self: app_page.Session, message: dict[str, Any]) -> None:
    """A session's ``_post`` that sends every message as it is made (the reference)."""
    if not self.closed:
        self.send(message)


def _both_ways(
    monkeypatch: pytest.MonkeyPatch, key: str, *then: Callable[[Any], Any]
) -> tuple[list[dict[str, Any]], Any, list[dict[str, Any]], Any]:
    """Calculator ``key`` built twice, each on a channel of its own: as the bridge sends
    it, and with every message sent as made (the reference, on which each of ``then``
    is also done as made). The two channels and views."""
    batched: list[dict[str, Any]] = []
    view = app_page.open_session(key, "", batched.append).view
    as_made: list[dict[str, Any]] = []
    with monkeypatch.context() as patch:
        patch.setattr(app_page.Session, "_post", _as_made)
        reference = app_page.open_session(key, "", as_made.append).view
        for step in then:
            step(reference)
    assert view is not None
    assert reference is not None
    return batched, view, as_made, reference


def _open_options(view: Any) -> None:
    """Open the view's "Rules options" as the page does: the heading's update."""
    heading = view.folds["Rules options"]
    app_page.receive(
        {
            "type": "comm_msg",
            "comm_id": heading.model_id,
            "data": {"method": "update", "state": {"expanded": True}, "buffer_paths": []},
            "buffers": [],
        }
    )


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_the_page_draws_the_same_models_as_with_every_message_sent_as_made(
    channel, monkeypatch, key
):
    """The build is sent as one batch, each widget's changes merged into its opening where
    that changes nothing the page sees, and a widget only once something shown names it:
    the page draws the same models in the same states as if every message had been sent
    as it was made, before and after "Rules options" is opened (its rows sent then)."""
    batched, view, as_made, reference = _both_ways(monkeypatch, key)
    assert [m["type"] for m in batched] == ["batch"]
    assert "batch" not in {m["type"] for m in as_made}
    assert _shown_models(batched) == _shown_models(as_made)
    sent = sum(m["type"] == "comm_open" for m in flat(batched))
    made = sum(m["type"] == "comm_open" for m in as_made)
    if not view.calc.option_params:
        assert sent <= made
        return
    assert sent < made  # (the closed options' rows: not sent)
    # opened as the page does: both pages end the same again, the rows drawn
    _open_options(view)
    with monkeypatch.context() as patch:
        patch.setattr(app_page.Session, "_post", _as_made)
        _open_options(reference)
    assert _shown_models(batched) == _shown_models(as_made)
    options = view.folds["Rules options"]
    assert all(
        f"IPY_MODEL_{view.inputs[p.name].model_id}" in repr(flat(batched))
        for p in view.calc.option_params
    )
    assert options.expanded


def test_a_change_from_the_page_updates_the_figures_without_echo(channel):
    view = app_page.start("dice_pool")
    channel.clear()
    box = view.inputs["dice"]
    app_page.receive(
        {
            "type": "comm_msg",
            "comm_id": box.model_id,
            "msg_id": "page-1",
            "data": {"method": "update", "state": {"value": "9"}, "buffer_paths": []},
            "buffers": [],
        }
    )
    assert box.value == "9"
    # P(at least one success) with 9 dice at target 7: 1 - (6/10)^9, by hand
    want = f"{(1 - 0.6**9) * 100:.2f} %"
    assert view.result is not None
    assert view.result.figure("p_success").text == want
    # (what one page message changes comes back as one message)
    assert len(channel) == 1
    updates = [m for m in flat(channel) if m["type"] == "comm_msg"]
    assert updates
    assert all(m["data"]["method"] == "update" for m in updates)
    assert box.model_id not in {m["comm_id"] for m in updates}  # no echo of the typed value
    output = next(m for m in updates if m["comm_id"] == view.output.model_id)
    assert f'data-figure="p_success">{want}<' in output["data"]["state"]["value"]


def test_bad_input_from_the_page_is_reported_not_raised(channel):
    view = app_page.start("dice_pool")
    box = view.inputs["dice"]
    shown = view.result
    app_page.receive(
        {
            "type": "comm_msg",
            "comm_id": box.model_id,
            "data": {"method": "update", "state": {"value": "lots"}, "buffer_paths": []},
        }
    )
    assert view.result is shown
    assert "Dice" in view.messages["dice"].value


def test_buffers_are_sent_as_bytes_and_unknown_messages_are_refused(channel):
    view = app_page.start("dice_pool")
    field = view.inputs["dice"]
    field.send({"note": "bytes"}, buffers=[memoryview(b"ab")])
    assert channel[-1]["comm_id"] == field.model_id
    assert channel[-1]["buffers"] == [b"ab"]
    with pytest.raises(ValueError, match="unknown message type"):
        app_page.receive({"type": "comm_open", "comm_id": field.model_id})


def test_start_before_install_is_an_error(monkeypatch):
    monkeypatch.setattr(app_page, "_default", None)
    with pytest.raises(RuntimeError, match="install"):
        app_page.start("dice_pool")


STANDIN_RUN = """
import importlib.abc, sys

class HideIPython(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "IPython" or name.startswith("IPython."):
            return None if name in sys.modules else _refuse(name)
        return None

def _refuse(name):
    raise ModuleNotFoundError(f"No module named {name!r}")

sys.meta_path.insert(0, HideIPython())
from ruleslab_widgets import ipython_standin
assert ipython_standin.install()
from ruleslab_widgets import app_page
sent = []
app_page.install(sent.append)
view = app_page.start("dice_pool")
assert sent[-1]["messages"][-1] == {"type": "display", "model_id": view.model_id}
import IPython
assert IPython.get_ipython() is None and IPython.__doc__.startswith("ruleslab's stand-in")
try:
    IPython.display.display("x")
except RuntimeError as err:
    assert "only its calculator" in str(err)
else:
    raise AssertionError("display() did not refuse")
print("standin ok", len(sent))
"""


def test_the_app_page_runs_without_ipython():
    """With IPython not importable (as in the app page's worker), the stand-in carries the stack."""
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", STANDIN_RUN], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert "standin ok" in proc.stdout


def test_the_standin_steps_aside_for_a_real_ipython():
    from ruleslab_widgets import ipython_standin

    pytest.importorskip("IPython")
    assert ipython_standin.install() is False


def test_a_shared_links_query_is_applied_before_the_display(channel):
    """``start(key, query)``: the page's query sets the fields (``tests/widgets/test_share.py``
    covers the query itself); every message still refers to opened models only."""
    view = app_page.start("lifting", "?calculator=lifting&strength=5&might=2&object_kg=450")
    channel[:] = flat(channel)
    assert channel[-1] == {"type": "display", "model_id": view.model_id}
    opened = {m["comm_id"] for m in channel if m["type"] == "comm_open"}
    for message in channel[:-1]:
        assert set(MODEL_REF.findall(repr(message["data"]))) <= opened
    assert view.inputs["strength"].value == "5"
    assert view.result is not None
    assert view.result.figure("capacity").text == "210 kg"  # 30 kg × (5 + 2), by hand
    # the page learns the figures and the link from the state it receives
    sent = {m["comm_id"]: m["data"].get("state", {}) for m in channel if m["type"] != "display"}
    assert 'data-figure="capacity">210 kg<' in str(sent[view.output.model_id])
    last_query = [
        m["data"]["state"]["query"]
        for m in channel
        if m.get("comm_id") == view.share.model_id and "query" in m["data"].get("state", {})
    ][-1]
    assert last_query == "calculator=lifting&strength=5&might=2&object_kg=450"


def test_none_is_sent_as_null_not_left_out():
    # Pyodide's to_js makes None `undefined`, which the page's widget models read as
    # "no change"; the sender replaces each None (nested too) by Pyodide's jsnull.
    from ruleslab_widgets.app_page import with_nulls

    null = object()
    buffer = memoryview(b"ab")
    message = {
        "data": {"state": {"display": None, "value": 0, "items": [None, "x", (None,)]}},
        "buffers": [buffer],
        "metadata": None,
    }
    out = with_nulls(message, null)
    assert out["data"]["state"]["display"] is null
    assert out["data"]["state"]["value"] == 0
    assert out["data"]["state"]["items"][0] is null
    assert out["data"]["state"]["items"][1] == "x"
    assert out["data"]["state"]["items"][2][0] is null
    assert out["metadata"] is null
    assert out["buffers"][0] is buffer
    assert message["data"]["state"]["display"] is None  # the message itself is unchanged


def test_the_pages_null_is_none_in_python() -> None:
    """Pyodide's ``toPy`` makes the page's ``null`` ``jsnull`` (checked under Node:
    ``{'a': jsnull, 'b': [jsnull, 1]}``); the bridge makes it ``None``, as JSON would."""
    from ruleslab_widgets.app_page import with_nulls, without_nulls

    null = object()  # stands for pyodide.ffi.jsnull
    message = {"data": {"text": null, "list": [null, 1, {"x": null}]}, "kind": "comm_msg"}
    assert without_nulls(message, null) == {
        "data": {"text": None, "list": [None, 1, {"x": None}]},
        "kind": "comm_msg",
    }
    assert without_nulls(with_nulls({"a": None, "b": [None]}, null), null) == {
        "a": None,
        "b": [None],
    }
    assert without_nulls(message, None) is message  # CPython: nothing to convert


# --- sessions: one interpreter, several pages (the shared runtime) -------------------


@pytest.fixture
def pages(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[dict[str, Any]]]:
    """Two pages' channels ("a", "b") in one interpreter, no one-page ``send``."""
    monkeypatch.setattr(comm, "create_comm", comm.create_comm)
    monkeypatch.setattr(ipywidget, "JUPYTER_WIDGETS_ECHO", ipywidget.JUPYTER_WIDGETS_ECHO)
    monkeypatch.setattr(app_page, "_default", None)
    monkeypatch.setattr(app_page, "_current", None)
    app_page.install()
    return {"a": [], "b": []}


def _update(widget: Any, value: str, msg_id: str = "page-1") -> dict[str, Any]:
    return {
        "type": "comm_msg",
        "comm_id": widget.model_id,
        "msg_id": msg_id,
        "data": {"method": "update", "state": {"value": value}, "buffer_paths": []},
        "buffers": [],
    }


def _click(button: Any) -> dict[str, Any]:
    return {
        "type": "comm_msg",
        "comm_id": button.model_id,
        "data": {"method": "custom", "content": {"event": "click"}},
    }


def _ids(messages: list[dict[str, Any]]) -> set[str]:
    return {m["comm_id"] for m in flat(messages) if "comm_id" in m}


def test_each_session_speaks_to_its_own_page_only(pages):
    a = app_page.open_session("dice_pool", "", pages["a"].append)
    b = app_page.open_session("dice_pool", "dice=3", pages["b"].append)
    assert a.view is not None
    assert b.view is not None
    assert flat(pages["a"])[-1] == {"type": "display", "model_id": a.view.model_id}
    assert flat(pages["b"])[-1] == {"type": "display", "model_id": b.view.model_id}
    # every model a page was told about is one of its own session's
    assert a.view.model_id in _ids(pages["a"]) <= set(a.comms)
    assert b.view.model_id in _ids(pages["b"]) <= set(b.comms)
    assert not set(a.comms) & set(b.comms)
    pages["a"].clear()
    pages["b"].clear()
    b.receive(_update(b.view.inputs["dice"], "9"))
    assert pages["a"] == []
    assert pages["b"]
    assert _ids(pages["b"]) <= set(b.comms)
    # 1 - (6/10)^9 by hand; page a still shows its default pool
    assert b.view.result is not None
    assert a.view.result is not None
    assert b.view.result.figure("p_success").text == f"{(1 - 0.6**9) * 100:.2f} %"
    assert a.view.inputs["dice"].value != "9"
    # the module-level receive routes by the widget's owner
    pages["b"].clear()
    app_page.receive(_update(a.view.inputs["dice"], "4"))
    assert pages["b"] == []
    assert pages["a"]
    assert a.view.result.figure("p_success").text == f"{(1 - 0.6**4) * 100:.2f} %"


def test_a_session_may_not_touch_another_pages_widgets(pages):
    a = app_page.open_session("dice_pool", "", pages["a"].append)
    b = app_page.open_session("lifting", "", pages["b"].append)
    assert b.view is not None
    with pytest.raises(ValueError, match="no widget"):
        a.receive(_update(b.view.inputs["strength"], "9"))
    assert b.view.inputs["strength"].value != "9"


def test_widgets_made_while_handling_a_pages_message_go_to_that_page(pages):
    """A roll's click makes its log's content change; a party adds rows (new widgets)."""
    from ipywidgets import Button

    a = app_page.open_session("dice_pool", "", pages["a"].append)
    b = app_page.open_session("dice_pool", "", pages["b"].append)
    assert b.view is not None
    made: list[Any] = []
    with pytest.raises(RuntimeError, match="outside any page's session"):
        Button(description="nobody's")  # no page to show it on
    # a button whose click makes a new widget, built as page b's
    with app_page._serving(b):
        maker = Button(description="add")
    shown = b.view.results  # (a box page b draws: the child is put in it)

    def add(_button: Any) -> None:
        made.append(Button(description="child"))
        shown.children = (*shown.children, made[-1])

    maker.on_click(add)
    pages["a"].clear()
    pages["b"].clear()
    b.receive(_click(maker))
    assert len(made) == 1
    child_id = made[0].model_id
    assert child_id in b.comms
    assert child_id not in a.comms
    opened = [m["comm_id"] for m in flat(pages["b"]) if m["type"] == "comm_open"]
    assert child_id in opened
    assert pages["a"] == []


def test_closing_a_session_drops_its_widgets_and_leaves_the_others(pages):
    a = app_page.open_session("dice_pool", "", pages["a"].append)
    b = app_page.open_session("dice_pool", "", pages["b"].append)
    assert b.view is not None
    ids = set(a.comms)
    manager = comm.get_comm_manager()
    assert ids <= set(manager.comms)
    pages["a"].clear()
    a.close()
    assert a.closed
    assert a.view is None
    assert a.comms == {}
    assert not ids & set(manager.comms)  # unregistered
    assert not ids & set(ipywidget._instances)  # and no longer kept alive
    assert pages["a"] == []  # a closed page is told nothing
    with pytest.raises(RuntimeError, match="closed"):
        a.receive({"type": "comm_msg", "comm_id": next(iter(ids)), "data": {}})
    b.receive(_update(b.view.inputs["dice"], "9"))
    assert b.view.result is not None
    assert b.view.result.figure("p_success").text == f"{(1 - 0.6**9) * 100:.2f} %"
    a.close()  # twice: nothing more


def test_an_error_in_one_session_leaves_the_other_working(pages):
    """Malformed and unknown messages (as a broken or hostile page might send) raise for
    their own session only; the other page's calculator keeps answering."""
    a = app_page.open_session("dice_pool", "", pages["a"].append)
    b = app_page.open_session("dice_pool", "", pages["b"].append)
    assert a.view is not None
    assert b.view is not None
    some_id = a.view.inputs["dice"].model_id
    for bad in (
        {"type": "comm_msg"},  # no comm_id
        {"type": "comm_msg", "comm_id": 7},
        {"type": "comm_msg", "comm_id": "no-such-widget", "data": {}},
        {"type": "comm_open", "comm_id": some_id},
        {"type": "launch", "comm_id": some_id},
    ):
        with pytest.raises(ValueError, match=r"no widget|unknown message type"):
            a.receive(bad)
    # a malformed update inside a real message: the widget's handler fails and is logged
    a.receive({"type": "comm_msg", "comm_id": some_id, "data": {"method": "update"}})
    pages["b"].clear()
    b.receive(_update(b.view.inputs["dice"], "9"))
    assert b.view.result is not None
    assert b.view.result.figure("p_success").text == f"{(1 - 0.6**9) * 100:.2f} %"
    assert pages["b"]
    assert _ids(pages["b"]) <= set(b.comms)
    # and a itself still works after its own errors
    a.receive(_update(a.view.inputs["dice"], "4"))
    assert a.view.result is not None
    assert a.view.result.figure("p_success").text == f"{(1 - 0.6**4) * 100:.2f} %"


def _roll_log(session: Any) -> str:
    own = [ipywidget._instances[i] for i in session.comms if i in ipywidget._instances]
    logs = [w for w in own if 'class="rl-roll' in str(getattr(w, "value", ""))]
    assert len(logs) == 1
    return str(logs[0].value)


def _roll_controls(session: Any) -> tuple[Any, Any]:
    from ipywidgets import Button, Text

    own = [ipywidget._instances[i] for i in session.comms if i in ipywidget._instances]
    seed = next(w for w in own if isinstance(w, Text) and "rl-roll-seed" in w._dom_classes)
    button = next(w for w in own if isinstance(w, Button) and w.description.startswith("Roll"))
    return button, seed


def test_seeded_rolls_are_per_page_and_reproducible(pages):
    """Two pages rolling in one interpreter: a seeded roll gives the same log whatever
    the other page does (every roll has its own ``random.Random(seed)``; a blank seed is
    drawn from ``SystemRandom``: no generator is shared between pages)."""
    a = app_page.open_session("dice_pool", "dice=6", pages["a"].append)
    b = app_page.open_session("dice_pool", "dice=6", pages["b"].append)
    button_a, seed_a = _roll_controls(a)
    button_b, seed_b = _roll_controls(b)
    a.receive(_update(seed_a, "4242"))
    a.receive(_click(button_a))
    first = _roll_log(a)
    assert "4242" in first
    for _ in range(5):  # the other page rolls, unseeded, between a's rolls
        b.receive(_click(button_b))
    a.receive(_click(button_a))
    assert _roll_log(a) == first
    # b's seeded roll equals a's with the same seed and pool (the same dice)
    b.receive(_update(seed_b, "4242"))
    b.receive(_click(button_b))
    assert _roll_log(b) == first


@pytest.mark.parametrize("key", ["lifting", "chimera"])
def test_a_fill_sends_the_closed_folds_rows_hidden(channel, monkeypatch, key):
    """The page, idle, asks for the rest (``fill``): the closed folds' rows are sent
    (opened before the region names them) and drawn hidden; the page then draws the same
    models as one whose every message was sent as made, with the regions filled."""
    from ruleslab_widgets.fold import FoldRegion, fill_regions

    filled: list[int] = []
    batched, view, as_made, _ = _both_ways(
        monkeypatch, key, lambda reference: filled.append(fill_regions(reference))
    )
    assert filled[0] >= 2  # (Rules options, Across a range)
    before = len(batched)
    app_page.receive({"type": "fill", "model_id": view.model_id, "msg_id": "page-9"})
    assert [m["type"] for m in batched[before:]] == ["batch"]
    assert _shown_models(batched) == _shown_models(as_made)
    options = view.folds["Rules options"]
    assert not options.expanded
    regions = [w for w in view.form.children[-1].children if isinstance(w, FoldRegion)]
    assert len(regions) == 1
    assert regions[0].layout.display == "none"
    assert list(regions[0].children) == list(regions[0].rows)
    # once more: nothing left to send
    app_page.receive({"type": "fill", "model_id": view.model_id})
    assert len(batched) == before + 1
