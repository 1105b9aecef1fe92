"""The few IPython names the widget stack imports, for the app page, which runs without IPython.

ipywidgets, comm and anywidget import IPython at module level, for what a
notebook kernel offers: ``get_ipython()`` (the running shell, or None),
``IPython.display.display``/``clear_output`` (for ``interact`` and the Output
widget) and ``InteractiveShell`` (the Output widget's capture). The app page
has no shell and shows only its calculator, which uses none of them.

IPython and what it pulls in (pygments, prompt_toolkit, stack_data, …) are
4.3 MB of the app page's download (gzip, compiled) and most of a second of
its start: measured in ``bench/site_load.py`` and the issue's closing note, the
app page misses its byte budget with them. So the app page's worker calls
:func:`install` before it imports ipywidgets, and loads none of IPython's
packages (``static/pyodide/app-lock.json``, written by ``tools/build_app.py``).

Where the real IPython can be imported (a notebook, CPython), :func:`install`
does nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any, NoReturn

__all__ = ["install"]

_MODULES = ("IPython", "IPython.display", "IPython.core", "IPython.core.interactiveshell")


def get_ipython() -> None:
    """No IPython shell runs on the app page."""
    return None


def _no_display(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise RuntimeError(
        "the app page has no IPython display: it shows only its calculator "
        "(run the notebook view to display other objects)"
    )


class InteractiveShell:
    """Stands for IPython's shell class; never instantiated on the app page."""

    @classmethod
    def initialized(cls) -> bool:
        """No shell was started."""
        return False


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # a finder that refuses the name outright
        return False


def install() -> bool:
    """Register the stand-in modules unless IPython can be imported; True if it did."""
    if "IPython" in sys.modules or _importable("IPython"):
        return False
    ipython, display, core, shell = (ModuleType(name) for name in _MODULES)
    ipython.__doc__ = "ruleslab's stand-in for IPython on the app page (no shell)."
    # (a module's attributes are its __dict__; ModuleType declares none of these names)
    vars(ipython).update(get_ipython=get_ipython, display=display, core=core)
    vars(display).update(display=_no_display, clear_output=_no_display)
    vars(shell).update(InteractiveShell=InteractiveShell)
    vars(core).update(interactiveshell=shell)
    sys.modules.update(zip(_MODULES, (ipython, display, core, shell), strict=True))
    return True
