"""Quick reference › Mega-Attributes: a Mega dot counts for 2 attribute dots."""

from ruleslab.quickref.mega import MEGA_ATTRIBUTES, effective


def test_no_mega_dots_no_step():
    e = effective("Strength", 3, 0)
    assert e.value == 3
    assert e.step is None


def test_each_mega_dot_counts_two():
    e = effective("Dexterity", 3, 2, purpose="for running speed")
    assert e.value == 7
    assert e.step is not None
    assert e.step.rule == MEGA_ATTRIBUTES
    assert "Dexterity 3 + 2 × Mega-Dexterity 2 = 7" in e.step.text
    assert "for running speed" in e.step.text
