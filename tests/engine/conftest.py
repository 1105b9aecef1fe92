"""Shared set-up of the engine's tests.

Their helper modules (``dice_oracle``) live beside them and are imported by name. In
Pyodide pytest runs this folder without the project's configuration, in its default
"prepend" import mode, which puts the folder on ``sys.path``; on CPython the project
runs pytest in "importlib" mode, which does not, so the folder is added here.
"""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
