"""The app page's Python side (``ruleslab_widgets.app_page``) on CPython, a list as channel.

What the page's widget manager relies on: every comm is opened before any
message is sent on it or names it (a parent's state refers only to children already opened),
the display comes last, a change from the page reaches the calculator and
its new figures come back as ``update`` messages, and no echo doubles them.
"""

from __future__ import annotations

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


@pytest.fixture
def channel(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Messages sent to the page; the comm factory and echo setting are restored afterwards."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(comm, "create_comm", comm.create_comm)
    monkeypatch.setattr(ipywidget, "JUPYTER_WIDGETS_ECHO", ipywidget.JUPYTER_WIDGETS_ECHO)
    monkeypatch.setattr(app_page, "_send", None)
    app_page.install(sent.append)
    return sent


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_opens_come_before_any_reference_and_the_display_comes_last(channel, key):
    view = app_page.start(key)
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
    monkeypatch.setattr(app_page, "_send", None)
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
assert sent[-1] == {"type": "display", "model_id": view.model_id}
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
