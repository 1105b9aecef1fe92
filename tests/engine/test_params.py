"""The declared-parameter framework: parsing form text, ranges, messages."""

import pytest

from ruleslab import BoolParam, ChoiceParam, InputError, IntParam, NumberParam, TextParam, checked
from ruleslab.params import NO_DEFAULT

DICE = IntParam("dice", "Dice", default=6, minimum=0, maximum=60)


@pytest.mark.parametrize("text", ["", "  ", "abc", "2.5", "-1", "61", "1e3"])
def test_int_param_rejects_with_the_label_and_range(text):
    with pytest.raises(InputError) as err:
        DICE.parse(text)
    assert err.value.field == "dice"
    assert "Dice" in err.value.message
    assert "0 to 60" in err.value.message or "empty" in err.value.message


@pytest.mark.parametrize(("text", "value"), [("7", 7), (" 12 ", 12), ("3.0", 3), ("60", 60)])
def test_int_param_parses(text, value):
    assert DICE.parse(text) == value


def test_number_param_range_message_uses_thousands_separators():
    weight = NumberParam("kg", "Weight", default=0.0, minimum=0, maximum=1e6, unit="kg")
    with pytest.raises(InputError, match="from 0 to 1,000,000 kg"):
        weight.parse("-5")
    assert weight.parse("12.5") == 12.5
    with pytest.raises(InputError):
        weight.parse("nan")


def test_bool_and_choice():
    flag = BoolParam("r", "Reroll", default=False)
    assert flag.check(True) is True
    with pytest.raises(InputError):
        flag.check("yes")
    pick = ChoiceParam("c", "Ruleset", default="a", choices=(("a", "A"), ("b", "B")))
    assert pick.check("b") == "b"
    with pytest.raises(InputError, match="one of A, B"):
        pick.check("z")


def test_text_param_runs_its_parser_and_limits_length():
    def parse(text, param):
        items = [t.strip() for t in text.split(",") if t.strip()]
        for i, item in enumerate(items, 1):
            if not item.isdigit():
                raise InputError(param.name, f"{param.label}: item {i} ({item!r}) is not a number.")
        return tuple(int(t) for t in items)

    field = TextParam("xs", "Numbers", default="1, 2", parser=parse, max_length=20)
    assert field.parse("1, 2,3") == (1, 2, 3)
    with pytest.raises(InputError, match="item 2"):
        field.parse("1, x")
    with pytest.raises(InputError, match="too long"):
        field.parse("1," * 20)
    with pytest.raises(InputError):
        field.check(5)


def test_checked_validates_calls_and_keeps_the_declaration():
    @checked(DICE)
    def roll(dice: int, note: str = "") -> int:
        return dice

    assert roll(5) == 5
    assert roll.params == (DICE,)
    with pytest.raises(InputError, match="Dice must be a whole number from 0 to 60"):
        roll(200)
    with pytest.raises(TypeError):

        @checked(IntParam("nope", "Nope", default=0))
        def other(dice: int) -> int:
            return dice


def test_a_default_is_written_once_in_the_signature():
    soak = IntParam("soak", "Soak", minimum=0, maximum=10)

    @checked(soak)
    def resolve(soak: int = 2) -> int:
        return soak

    (declared,) = resolve.params
    assert declared.default == 2  # the form shows the signature's default
    assert soak.default is NO_DEFAULT  # the shared declaration is left as it was
    assert resolve() == 2
    with pytest.raises(InputError, match="Soak must be a whole number from 0 to 10"):
        resolve(11)
    assert resolve.unchecked(11) == 11  # the form path: checked once, by the form


def test_checked_refuses_a_default_written_twice_or_nowhere():
    with pytest.raises(
        TypeError, match=r"soak's default is written twice \(declared 2, signature 0\)"
    ):

        @checked(IntParam("soak", "Soak", default=2, minimum=0, maximum=10))
        def drifted(soak: int = 0) -> int:
            return soak

    with pytest.raises(TypeError, match="written twice"):

        @checked(IntParam("soak", "Soak", default=2, minimum=0, maximum=10))
        def agreed(soak: int = 2) -> int:
            return soak

    with pytest.raises(TypeError, match="soak has no default"):

        @checked(IntParam("soak", "Soak", minimum=0, maximum=10))
        def nowhere(soak: int) -> int:
            return soak

    @checked(IntParam("soak", "Soak", default=3, minimum=0, maximum=10))
    def declared_only(soak: int) -> int:  # a required argument: the form still needs a value
        return soak

    assert declared_only.params[0].default == 3
    assert declared_only(4) == 4
