"""Names of the rules texts' sections, used in every :class:`~ruleslab.explain.Step`.

A step's rule reads "<text> › <section>", matching the headings of the texts in
``shared/rules/``. Keep the names here so they stay consistent across modules.
"""

__all__ = ["ALT", "CHIMERA", "QR", "TITLES", "cite", "rule"]

QR = "Quick reference"
ALT = "Combat alterations"
CHIMERA = "Chimera combat"


def rule(source: str, *sections: str) -> str:
    """``rule(QR, "Lifting")`` → ``"Quick reference › Lifting"``."""
    return " › ".join((source, *sections))


TITLES = {
    QR: "Aberrant 2.0/2.1 quick reference",
    ALT: "Aberrant 2.0 combat alterations",
    CHIMERA: "Chimera combat",
}
"""Each text's full title (the first line of its file in ``shared/rules/``), for citations."""


def cite(section: str) -> str:
    """A :func:`rule` string for a reader: ``"Quick reference › Lifting"`` →
    ``"Aberrant 2.0/2.1 quick reference › Lifting"``."""
    source, sep, rest = section.partition(" › ")
    if source not in TITLES:
        raise ValueError(f"unknown rules text {source!r}: one of {', '.join(TITLES)}")
    return TITLES[source] + sep + rest
