"""Build tooling for ruleslab (site, Pyodide distribution). Not shipped in the wheel."""
