"""Calculator declarations, one module per rule area (named like the engine's).

Each module defines ``CALCULATORS``, a tuple of
:class:`~ruleslab_widgets.declare.Calculator`; :mod:`ruleslab_widgets.catalog`
lists the modules in site order.
"""
