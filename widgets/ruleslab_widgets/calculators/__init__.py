"""Calculator declarations, one module per calculator, named by its key.

``calculators/<key>.py`` defines ``CALCULATOR``, a
:class:`~ruleslab_widgets.declare.Calculator` whose ``key`` is the module's
name; :mod:`ruleslab_widgets.catalog` lists the keys in site order and imports
a module only when its calculator is asked for (the app page imports one).
"""
