"""The documentation site: ``docs/`` built with MkDocs, Material and mkdocstrings.

:func:`build_docs` runs ``mkdocs build --strict`` on ``mkdocs.yml`` (the repository's
root): a warning, a link to a page that does not exist or an anchor that no heading
has fails the build. :func:`tools.build_site.build_site` builds it into the site's
``docs/`` folder, which the landing page links to.

This module is also the build's MkDocs hook (``hooks:`` in ``mkdocs.yml``):

* every empty ``<div data-ruleslab=…>`` of a page gets its calculator pre-rendered at
  its inputs, by the project's own hook for rules authors
  (:func:`ruleslab_sphinx.mkdocs_hook.prerender_embeds`), so the embedding page's live
  calculators show their figures before Python starts, as a rules author's would;
* the docstrings' Sphinx roles (``:func:`name```) read as code in the API reference;
* a rules note's heading keeps its note id as its anchor (``falling.html#RN-FALL-1``,
  as the calculators and :mod:`tools.rules_notes` cite it): :func:`slugify`;
* the calculators' reference (``api-calculators.md``) gets one section per calculator
  of the catalog, in site order, at its marker (:data:`CALCULATORS_MARK`): a new
  calculator is documented without editing the page.

Usage::

    python tools/docs_site.py [--out build/docs]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from markdown.extensions.toc import slugify as _markdown_slugify

from tools import REPO
from tools.rules_notes import CITATION

__all__ = [
    "CALCULATORS_MARK",
    "CONFIG",
    "DocsBuildError",
    "build_docs",
    "calculators_reference",
    "on_page_content",
    "on_page_markdown",
    "slugify",
]

CONFIG = REPO / "mkdocs.yml"
DEFAULT_OUT = REPO / "build" / "docs"

#: Where ``api-calculators.md`` lists the catalog (:func:`calculators_reference`).
CALCULATORS_MARK = "<!-- every calculator of the catalog, in site order (tools/docs_site.py) -->"

#: A Sphinx role in a docstring, as Markdown renders it: ``:func:`x``` is the text
#: ``:func:`` then the code ``x`` (``~`` keeps only the last part of the name).
_ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):<code>(~?)([^<]*)</code>"
)


class DocsBuildError(RuntimeError):
    """The documentation did not build, or built with a warning (strict mode)."""


def slugify(value: str, separator: str) -> str:
    """A heading's anchor: the note id a rules note's heading starts with
    (``RN-FALL-1: where …`` is ``RN-FALL-1``), else Python-Markdown's own slug."""
    match = CITATION.match(value.strip())
    return match.group(0) if match else _markdown_slugify(value, separator)


def _role_as_code(match: re.Match[str]) -> str:
    tilde, name = match.groups()
    return f"<code>{name.rsplit('.', 1)[-1] if tilde else name}</code>"


def calculators_reference() -> str:
    """A section per calculator of the catalog (its title, then mkdocstrings' reference
    of ``ruleslab.calculators.<key>``), in site order."""
    from ruleslab.calculators import CALCULATORS

    options = "    options:\n      show_root_heading: false\n      show_root_toc_entry: false\n"
    return "\n".join(
        f"## {calc.title}\n\n::: ruleslab.calculators.{calc.key}\n{options}      heading_level: 3\n"
        for calc in CALCULATORS
    )


def on_page_markdown(markdown: str, **_kwargs: Any) -> str:
    """MkDocs' ``on_page_markdown`` event: the catalog at :data:`CALCULATORS_MARK`."""
    if CALCULATORS_MARK in markdown:
        return markdown.replace(CALCULATORS_MARK, calculators_reference())
    return markdown


def on_page_content(html: str, **_kwargs: Any) -> str:
    """MkDocs' ``on_page_content`` event: embeds pre-rendered, Sphinx roles as code."""
    from ruleslab_sphinx.mkdocs_hook import prerender_embeds

    return _ROLE.sub(_role_as_code, prerender_embeds(html))


def build_docs(out: Path = DEFAULT_OUT, *, config: Path = CONFIG) -> Path:
    """Build the documentation into ``out`` (emptied first), strictly; returns ``out``.

    Raises :class:`DocsBuildError` with MkDocs' output when it fails or warns.
    """
    out = Path(out).resolve()
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean"]
    cmd += ["--config-file", str(config), "--site-dir", str(out)]
    # (Material 9.7+ prints a notice about MkDocs 2 on every build unless told not to)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(cmd, cwd=config.parent, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise DocsBuildError(f"mkdocs build --strict failed:\n{proc.stdout[-4000:]}{proc.stderr}")
    if not (out / "index.html").is_file():
        raise DocsBuildError(f"mkdocs wrote no {out / 'index.html'}")
    _drop_unused_assets(out)
    return out


#: What Material writes that an English-only site never fetches: lunr's stemmers and
#: segmenters for other languages (``plugins: search: lang: en`` in mkdocs.yml; English
#: is in the search worker itself), and the source maps of its scripts (for developer
#: tools only; the offline cache leaves them out too), with the comment naming each.
_UNUSED_ASSETS = ("assets/javascripts/lunr",)
_MAP_COMMENT = re.compile(r"\n?(?://|/\*)# sourceMappingURL=[^\n]*\s*$")


def _drop_unused_assets(out: Path) -> None:
    for rel in _UNUSED_ASSETS:
        shutil.rmtree(out / rel, ignore_errors=True)
    for source_map in sorted((out / "assets").rglob("*.map")):
        source = source_map.with_suffix("")  # (bundle.js.map maps bundle.js)
        if source.is_file():
            text = source.read_text(encoding="utf-8")
            source.write_text(_MAP_COMMENT.sub("\n", text), encoding="utf-8")
        source_map.unlink()


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        out = build_docs(args.out)
    except DocsBuildError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"built {out} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
