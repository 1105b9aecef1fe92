"""Names of the rules texts' sections, used in every :class:`~ruleslab.explain.Step`.

A step's rule reads "<text> › <section>", matching the headings of the texts in
``shared/rules/``. Keep the names here so they stay consistent across modules.
"""

QR = "Quick reference"
ALT = "Combat alterations"
CHIMERA = "Chimera combat"


def rule(source: str, *sections: str) -> str:
    """``rule(QR, "Lifting")`` → ``"Quick reference › Lifting"``."""
    return " › ".join((source, *sections))
