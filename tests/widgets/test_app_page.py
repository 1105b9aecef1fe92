"""The app page's Python side (``ruleslab_widgets.app_page``) on CPython, a list as channel.

What the page's widget manager relies on: every comm is opened before any
message is sent on it or names it (a parent's state refers only to children already opened),
the display comes last, a change from the page reaches the calculator and
its new figures come back as ``update`` messages, and no echo doubles them.
"""

from __future__ import annotations

import contextlib
import re
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


def _page_models(sent: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """What a page's widget manager holds once it has handled ``sent`` in order (opens,
    then updates applied to them): each model's class and final state, in the order they
    were opened, a reference to a model (a fresh uuid per build) made its place in that
    order; and the display's model (by place) last."""
    place: dict[str, int] = {}
    states: list[dict[str, Any]] = []
    shown = ""
    for message in flat(sent):
        if message["type"] == "comm_open":
            place[message["comm_id"]] = len(place)
            states.append(dict(message["data"]["state"]))
        elif message["type"] == "comm_msg" and message["data"].get("method") == "update":
            states[place[message["comm_id"]]].update(message["data"]["state"])
        elif message["type"] == "display":
            shown = message["model_id"]

    def canon(value: Any) -> Any:
        if isinstance(value, str):
            return MODEL_REF.sub(lambda m: f"IPY_MODEL_#{place[m.group(1)]}", value)
        if isinstance(value, dict):
            return {k: canon(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [canon(v) for v in value]
        return value

    names = [s["_model_name"] for s in states]
    return names, [canon(s) for s in states] + [{"display": place[shown]}]


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_a_build_sent_at_once_leaves_the_page_with_the_same_models(channel, monkeypatch, key):
    """The build's messages are held and sent as one batch, each widget's changes merged
    into its opening where that changes nothing the page sees: the page ends with the
    same models in the same states as if every message had been sent as it was made."""
    app_page.start(key)
    held = list(channel)
    channel.clear()
    monkeypatch.setattr(app_page.Session, "_holding", lambda self: contextlib.nullcontext())
    app_page.start(key)
    one_by_one = list(channel)
    assert "batch" not in {m["type"] for m in one_by_one}
    assert _page_models(held) == _page_models(one_by_one)
    assert len(flat(held)) < len(one_by_one)  # (changes were merged)


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
    updates = [m for m in channel if m["type"] == "comm_msg"]
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
    app_page.start("dice_pool")
    sample = app_page.PageComm(target_name="jupyter.widget", data={}, buffers=[memoryview(b"ab")])
    assert channel[-1]["comm_id"] == sample.comm_id
    assert channel[-1]["buffers"] == [b"ab"]
    with pytest.raises(ValueError, match="unknown message type"):
        app_page.receive({"type": "comm_open", "comm_id": sample.comm_id})


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
    assert _ids(pages["a"]) == set(a.comms)
    assert _ids(pages["b"]) == set(b.comms)
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
    maker.on_click(lambda _b: made.append(Button(description="child")))
    pages["a"].clear()
    pages["b"].clear()
    b.receive(_click(maker))
    assert len(made) == 1
    child_id = made[0].model_id
    assert child_id in b.comms
    assert child_id not in a.comms
    assert any(m["type"] == "comm_open" and m["comm_id"] == child_id for m in pages["b"])
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
