"""Build tooling for ruleslab (site, Pyodide distribution). Not shipped in the wheel."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
"""The repository's root, which every tool's paths start from."""
