"""tools.keep_notebooks and lite/keep_notebooks.mjs: stamps, the manifest, the page hook,
and the browser's verdict on a stored copy (run under Node).

The browser side is driven end to end by ``tests/browser/test_redeploy.py``;
here its pure functions run under Node, so every verdict and the agreement of
the JavaScript fingerprint with the build's can be checked case by case.
"""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tools.keep_notebooks import (
    CONTENTS_STORAGE,
    COPIES_FOLDER,
    MANIFEST,
    SCRIPT,
    SCRIPT_SOURCE,
    STAMP_KEY,
    KeepNotebooksError,
    cells_fingerprint,
    check_published,
    publish_notebooks,
)

REPO = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("keep_notebooks_check.mjs")

PAGE = """<html><head>
    <script>
      (async function () {
        const { pathname, origin, search, hash } = window.location;
        await import(
          '../config-utils.js?_=c9f706b'
        );
      }.call(this));
    </script>
</head><body></body></html>
"""


def _notebook(*cells: tuple[str, Any], **metadata: Any) -> dict[str, Any]:
    return {
        "cells": [
            {"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": source}
            | ({"outputs": [], "execution_count": None} if kind == "code" else {})
            for i, (kind, source) in enumerate(cells)
        ],
        "metadata": dict(metadata),
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _run(nb: dict[str, Any]) -> dict[str, Any]:
    """What JupyterLite saves after a run: outputs, counts, widget state; sources as
    one string; the cells' ids and metadata changed."""
    ran = copy.deepcopy(nb)
    for i, cell in enumerate(ran["cells"]):
        cell["source"] = (
            "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        )
        cell["id"] = f"new-{i}"
        cell["metadata"] = {"trusted": True, "execution": {"iopub.status.busy": "now"}}
        if cell["cell_type"] == "code":
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "4\n"}]
            cell["execution_count"] = i + 1
    ran["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    return ran


# ---- the fingerprint ----


def test_the_fingerprint_is_the_documented_encoding_of_the_cells() -> None:
    nb = _notebook(("markdown", ["# Hi\n", "there"]), ("code", "x = 1"))
    # by hand: type, byte length, source, for each cell
    want = hashlib.sha256(b"markdown\n10\n# Hi\ntherecode\n5\nx = 1").hexdigest()
    assert cells_fingerprint(nb) == want
    accented = _notebook(("code", "é"))  # 2 bytes in UTF-8
    assert cells_fingerprint(accented) == hashlib.sha256("code\n2\né".encode()).hexdigest()


def test_running_is_not_an_edit_and_editing_is() -> None:
    nb = _notebook(("markdown", "# Dice"), ("code", ["a = 1\n", "a + 3"]))
    assert cells_fingerprint(_run(nb)) == cells_fingerprint(nb)
    edits = []
    for change in ("source", "type", "added", "deleted", "moved", "split"):
        edited = copy.deepcopy(nb)
        cells = edited["cells"]
        if change == "source":
            cells[1]["source"] = ["a = 2\n", "a + 3"]
        elif change == "type":
            cells[0]["cell_type"] = "raw"
        elif change == "added":
            cells.append({"cell_type": "code", "metadata": {}, "source": "", "outputs": []})
        elif change == "deleted":
            del cells[0]
        elif change == "moved":
            cells.reverse()
        else:  # one cell's text split over two cells
            cells[1:] = [dict(cells[1], source="a = 1\n"), dict(cells[1], source="a + 3")]
        edits.append(cells_fingerprint(edited))
    assert cells_fingerprint(nb) not in edits
    assert len(set(edits)) == len(edits)


# ---- the browser's side, under Node ----


def _node(cases: list[dict[str, Any]], *, no_crypto: bool = False) -> list[dict[str, Any]]:
    if shutil.which("node") is None:
        pytest.fail("node is required: install Node.js 20")
    payload = {
        "module": str(SCRIPT_SOURCE),
        "noCrypto": no_crypto,
        "stampKey": STAMP_KEY,
        "cases": cases,
    }
    proc = subprocess.run(
        ["node", str(CHECK)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    result: list[dict[str, Any]] = json.loads(proc.stdout)
    return result


def _hard_cases() -> list[dict[str, Any]]:
    return [
        _notebook(),
        _notebook(("code", "")),
        _notebook(("code", ["", ""])),
        _notebook(("markdown", "Ōni the Ogre 🐉, Ćeska “Ace” Nováková\u0301\n")),
        _notebook(("code", "a\r\nb\tc\x00\x7f\u2028")),
        _notebook(("raw", ["line 1\n", "line 2"]), ("code", "print('x')")),
        {"cells": [{"cell_type": "code", "metadata": {}, "outputs": []}]},  # no source
    ]


def test_the_browser_computes_the_builds_fingerprint() -> None:
    notebooks = [
        json.loads(p.read_text("utf-8")) for p in sorted((REPO / "content").glob("*.ipynb"))
    ]
    notebooks += _hard_cases()
    assert len(notebooks) > len(_hard_cases())
    got = _node([{"notebook": nb, "published": "x"} for nb in notebooks])
    assert [g["fingerprint"] for g in got] == [cells_fingerprint(nb) for nb in notebooks]


def _stamped(nb: dict[str, Any], published: str | None) -> dict[str, Any]:
    nb = copy.deepcopy(nb)
    if published is not None:
        nb["metadata"][STAMP_KEY] = {"published": published}
    return nb


def test_the_verdict_on_a_stored_copy() -> None:
    old = _notebook(("markdown", "# Lifting"), ("code", 'calculator("lifting")'))
    new = _notebook(
        ("markdown", "# Lifting\n\nNow with carrying."), ("code", 'calculator("lifting")')
    )
    v_old, v_new = cells_fingerprint(old), cells_fingerprint(new)
    edited_old = copy.deepcopy(old)
    edited_old["cells"][1]["source"] = '# house rule\ncalculator("lifting")'
    cases = {
        # stamped with the version published now: left alone, edits and all
        "current, untouched": (_run(_stamped(new, v_new)), v_new, "current"),
        "current, edited": (_stamped(edited_old, v_new), v_new, "current"),
        # made from an older version, cells untouched (only run): the new version replaces it
        "older, run": (_run(_stamped(old, v_old)), v_new, "refresh"),
        # made from an older version and edited: kept, moved to the copies folder
        "older, edited": (_stamped(edited_old, v_old), v_new, "keep"),
        # cells already equal to the version published now: kept, stamped anew
        "older stamp, new cells": (_stamped(new, v_old), v_new, "adopt"),
        # saved by an earlier build (no stamp): the published cells, or kept
        "no stamp, published cells": (_run(_stamped(new, None)), v_new, "adopt"),
        "no stamp, other cells": (_run(_stamped(old, None)), v_new, "keep"),
        "not a notebook": (None, v_new, "keep"),
    }
    got = _node([{"notebook": nb, "published": pub} for nb, pub, _ in cases.values()])
    assert {name: g["verdict"] for name, g in zip(cases, got, strict=True)} == {
        name: want for name, (_, _, want) in cases.items()
    }
    # without crypto.subtle (a page not served over https) nothing is judged untouched:
    # only the stamp can say "current"; everything else is kept
    got = _node(
        [{"notebook": nb, "published": pub} for nb, pub, _ in cases.values()], no_crypto=True
    )
    assert {name: g["verdict"] for name, g in zip(cases, got, strict=True)} == {
        name: "current" if want == "current" else "keep" for name, (_, _, want) in cases.items()
    }
    assert all(g["fingerprint"] is None for g in got if g is not None)


# ---- publishing a built site ----


def _site(tmp_path: Path, storage: str = CONTENTS_STORAGE) -> Path:
    site = tmp_path / "site"
    data = {"jupyter-config-data": {"contentsStorageName": storage}}
    (site / "files" / "sub").mkdir(parents=True)
    (site / "jupyter-lite.json").write_text(json.dumps(data), "utf-8")
    a = _notebook(("markdown", "# A"), ("code", "1 + 1"))
    b = _notebook(("code", "print('b')"), kernelspec={"name": "python"})
    (site / "files" / "a.ipynb").write_text(json.dumps(a), "utf-8")
    (site / "files" / "sub" / "b.ipynb").write_text(json.dumps(b), "utf-8")
    (site / "files" / "notes.txt").write_text("not a notebook", "utf-8")

    def entry(path: str, kind: str) -> dict[str, Any]:
        return {"name": path.rsplit("/", 1)[-1], "path": path, "size": 1, "type": kind}

    listing = site / "api" / "contents"
    (listing / "sub").mkdir(parents=True)
    root = [entry("a.ipynb", "notebook"), entry("notes.txt", "file"), entry("sub", "directory")]
    (listing / "all.json").write_text(json.dumps({"content": root}), "utf-8")
    sub = {"content": [entry("sub/b.ipynb", "notebook")]}
    (listing / "sub" / "all.json").write_text(json.dumps(sub), "utf-8")
    for app in ("lab", "repl"):
        (site / app).mkdir()
        (site / app / "index.html").write_text(PAGE, "utf-8")
    (site / "index.html").write_text("<html>the landing page</html>", "utf-8")
    return site


def test_publish_stamps_lists_hooks_and_is_idempotent(tmp_path: Path) -> None:
    site = _site(tmp_path)
    a = json.loads((site / "files" / "a.ipynb").read_text("utf-8"))
    published = publish_notebooks(site)
    assert published == {
        "a.ipynb": cells_fingerprint(a),
        "sub/b.ipynb": cells_fingerprint(_notebook(("code", "print('b')"))),
    }
    for rel, fingerprint in published.items():
        path = site / "files" / rel
        nb = json.loads(path.read_text("utf-8"))
        assert nb["metadata"][STAMP_KEY] == {"published": fingerprint}
        listing = site / "api" / "contents" / Path(rel).parent / "all.json"
        entry = next(
            e for e in json.loads(listing.read_text("utf-8"))["content"] if e["path"] == rel
        )
        assert entry["size"] == path.stat().st_size
    assert json.loads((site / "files" / "sub" / "b.ipynb").read_text("utf-8"))["metadata"][
        "kernelspec"
    ] == {"name": "python"}
    assert (site / "files" / "notes.txt").read_text("utf-8") == "not a notebook"
    manifest = json.loads((site / MANIFEST).read_text("utf-8"))
    assert manifest["notebooks"] == published
    assert manifest["contentsStorageName"] == CONTENTS_STORAGE
    assert manifest["copiesFolder"] == COPIES_FOLDER
    assert (site / SCRIPT).read_bytes() == SCRIPT_SOURCE.read_bytes()
    copies = json.loads((site / "api" / "contents" / COPIES_FOLDER / "all.json").read_text("utf-8"))
    assert copies["content"] == []
    assert copies["path"] == COPIES_FOLDER

    lab = (site / "lab" / "index.html").read_text("utf-8")
    hook = lab.index(f"await import('../{SCRIPT}?_=")
    assert hook < lab.index("await import(\n          '../config-utils.js")
    assert ".then((m) => m.main('../')).catch((err) => console.warn(" in lab
    assert "ruleslab" not in (site / "index.html").read_text("utf-8")
    assert check_published(site) == []

    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert publish_notebooks(site) == published  # again: the same site
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert lab.count("ruleslab:keep-notebooks") == 1


def test_a_changed_notebook_is_published_again_without_touching_a_linked_copy(
    tmp_path: Path,
) -> None:
    site = _site(tmp_path)
    published = publish_notebooks(site)
    other = tmp_path / "other"
    shutil.copytree(site, other, copy_function=lambda s, d: Path(d).hardlink_to(s))
    nb = json.loads((other / "files" / "a.ipynb").read_text("utf-8"))
    nb["cells"][0]["source"] = "# A, revised"
    (other / "files" / "a.ipynb").unlink()
    (other / "files" / "a.ipynb").write_text(json.dumps(nb), "utf-8")
    again = publish_notebooks(other)
    assert again["a.ipynb"] == cells_fingerprint(nb) != published["a.ipynb"]
    assert again["sub/b.ipynb"] == published["sub/b.ipynb"]
    assert json.loads((site / MANIFEST).read_text("utf-8"))["notebooks"] == published
    assert check_published(site) == []
    assert check_published(other) == []


def test_check_published_names_what_is_wrong(tmp_path: Path) -> None:
    site = _site(tmp_path)
    assert check_published(site) == [f"{MANIFEST} or {SCRIPT} missing"]
    publish_notebooks(site)
    nb = json.loads((site / "files" / "a.ipynb").read_text("utf-8"))
    nb["cells"][0]["source"] = "# changed after publishing"
    (site / "files" / "a.ipynb").write_text(json.dumps(nb), "utf-8")
    (site / "repl" / "index.html").write_text(PAGE, "utf-8")
    assert check_published(site) == [
        "files/a.ipynb is not stamped with its fingerprint",
        "repl/index.html does not run static/ruleslab/keep-notebooks.mjs",
    ]


def test_publish_refuses_a_site_with_another_storage_name(tmp_path: Path) -> None:
    site = _site(tmp_path, storage="ruleslab-contents-0123456789ab")
    with pytest.raises(KeepNotebooksError, match="ruleslab-contents-0123456789ab"):
        publish_notebooks(site)


def test_publish_refuses_a_notebook_that_is_not_json(tmp_path: Path) -> None:
    site = _site(tmp_path)
    (site / "files" / "a.ipynb").write_text("{not json", "utf-8")
    with pytest.raises(KeepNotebooksError, match=r"files/a\.ipynb is not a notebook"):
        publish_notebooks(site)
