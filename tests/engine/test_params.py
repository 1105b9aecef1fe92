"""The declared-parameter framework: parsing form text, ranges, messages."""

import pytest

from ruleslab import BoolParam, ChoiceParam, InputError, IntParam, NumberParam, TextParam, checked
from ruleslab.params import NO_DEFAULT

DICE = IntParam("dice", "Dice", default=6, minimum=0, maximum=60)


def _refusal(param, text: str) -> str:
    """The message ``param`` refuses ``text`` with, checked to name ``param``'s field."""
    with pytest.raises(InputError) as err:
        param.parse(text)
    assert err.value.field == param.name
    return err.value.message


@pytest.mark.parametrize("text", ["", "  ", "abc", "2.5", "-1", "61", "1e3"])
def test_int_param_rejects_with_the_label_and_range(text):
    message = _refusal(DICE, text)
    assert "Dice" in message
    assert "0 to 60" in message or "empty" in message


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
    with pytest.raises(InputError, match="one of a = A, b = B"):
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


# --- numbers as people type them (issue 11, defect 4) ------------------------------------

WEIGHT = NumberParam("kg", "Weight", minimum=0, maximum=1e6, unit="kg")
OFFSET = NumberParam("offset", "Offset", minimum=-100, maximum=100)
HITS = IntParam("hits", "Hits", minimum=-5, maximum=100_000)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the form's own notation: "." decimal point, "," thousands in groups of three
        ("12.5", 12.5),
        ("1,000,000", 1000000.0),  # more than one group: commas cannot be decimal
        ("12,500.5", 12500.5),
        ("999,999.25", 999999.25),
        ("1000", 1000.0),
        ("1.000", 1.0),  # a decimal point, as the form writes it (see the module docstring)
        ("2.004", 2.004),
        (".5", 0.5),
        ("5.", 5.0),
        # a decimal comma: wherever the comma cannot be a thousands separator
        ("2,5", 2.5),
        ("1,5", 1.5),
        ("12,50", 12.5),
        ("0,125", 0.125),  # "0" cannot start a group of thousands
        ("1,2345", 1.2345),
        (",5", 0.5),
        # groups of three with a space, a no-break space or a narrow no-break space
        ("1 000", 1000.0),
        ("1\u00a0000", 1000.0),
        ("1\u202f000", 1000.0),
        ("1\u2009000", 1000.0),
        ("12 500,5", 12500.5),
        ("1 000.25", 1000.25),
        ("  7  ", 7.0),
    ],
)
def test_number_param_reads_decimal_commas_and_thousands_groups(text, value):
    assert WEIGHT.parse(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [("-2,5", -2.5), ("\u22122,5", -2.5), ("+2,5", 2.5), ("-0", 0.0), ("-1.25", -1.25)],
)
def test_number_param_reads_signs(text, value):
    parsed = OFFSET.parse(text)
    assert parsed == value
    assert str(parsed) == str(value)  # "-0" is 0, never −0.0


@pytest.mark.parametrize(
    "text",
    [
        "1_0",  # Python's digit separator
        "\u0661\u0662",  # Arabic-Indic 12
        "\u0967",  # Devanagari 1
        "\uff11\uff12",  # full-width 12
        "\u00b2",  # superscript 2
        "1\u00bd",  # vulgar fraction
        "1,00,000",  # not groups of three
        "1,0000,000",
        "12,50,0",
        "1,000,5",  # groups, then a stray comma
        "1.000,5",  # a thousands point: refused, never misread
        "1.000.000",
        "1,000.000,5",
        "1,5.5",
        "1,000 000",  # two kinds of separator
        "1 00",
        "1  000",
        "1 000 00",
        "1e",  # exponent notation, not whole
        "e3",
        "1e1234",
        "1,0e3",  # no comma in it
        "1 000e3",
        "1e3.5",
        "1e--3",
        "inf",
        "nan",
        "Infinity",
        "0x10",
        "1..2",
        "1,,000",
        ".",
        ",",
        "-",
        "+",
        "--1",
        "+-1",
        "- 1",
        "1-",
        "1 kg",
        "½",
        "1'000",
    ],
)
def test_number_param_refuses_anything_else_with_its_message(text):
    assert _refusal(WEIGHT, text) == "Weight must be a number from 0 to 1,000,000 kg."


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,000", 1000),
        ("12,500", 12500),
        ("100,000", 100_000),
        ("1 000", 1000),
        ("1\u202f000", 1000),
        ("3.0", 3),
        ("-5", -5),
        ("\u22125", -5),
        ("+7", 7),
        ("-0", 0),
    ],
)
def test_int_param_reads_thousands_groups_and_signs(text, value):
    assert HITS.parse(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "1,5",  # a decimal comma: 1.5 is not whole (it was read as 15)
        "2,5",
        "1.000",  # 1 with a decimal point, or 1000 with a thousands point: refused
        "12.000",
        "1.5",
        "1_0",
        "\u0661\u0662",
        "\u00b2",
        "1,00",
        "1,0000",
        "3,0",  # a whole-number field takes no decimal comma
        "1.5e0",
        "",
    ],
)
def test_int_param_refuses_what_it_cannot_read_as_one_whole_number(text):
    message = _refusal(HITS, text)
    assert "Hits" in message
    assert "-5 to 100,000" in message or "empty" in message or "could be" in message


# --- commas, points and exponents a GM can predict (issue 37) ----------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "1,000",
            "Weight: “1,000” could be 1000 (a thousands comma) or 1 (a decimal comma): "
            "type 1000 or 1.",
        ),
        (
            "1,250",
            "Weight: “1,250” could be 1250 (a thousands comma) or 1.25 (a decimal comma): "
            "type 1250 or 1.25.",
        ),
        (
            " 12,505 ",
            "Weight: “12,505” could be 12505 (a thousands comma) or 12.505 (a decimal "
            "comma): type 12505 or 12.505.",
        ),
    ],
)
def test_one_comma_before_three_digits_is_refused_with_both_readings(text, message):
    assert _refusal(WEIGHT, text) == message


def test_the_ambiguous_comma_with_a_sign_keeps_it():
    assert _refusal(OFFSET, "-1,250") == (
        "Offset: “-1,250” could be -1250 (a thousands comma) or -1.25 (a decimal comma): "
        "type -1250 or -1.25."
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "1.000",
            "Hits: “1.000” could be 1 (a decimal point) or 1000 (a thousands point): "
            "type 1 or 1000.",
        ),
        (
            "12.000",
            "Hits: “12.000” could be 12 (a decimal point) or 12000 (a thousands point): "
            "type 12 or 12000.",
        ),
    ],
)
def test_a_whole_number_field_refuses_a_point_before_three_zeros_with_both_readings(text, message):
    assert _refusal(HITS, text) == message


@pytest.mark.parametrize(
    ("param", "text", "value"),
    [
        (WEIGHT, "3,5", 3.5),  # a decimal comma: "5" is no group of thousands
        (WEIGHT, "1,250.5", 1250.5),  # a point after it: the comma groups thousands
        (WEIGHT, "1 250", 1250.0),  # a space is never decimal
        (WEIGHT, "1.250", 1.25),  # a point is always decimal in a number field
        (HITS, "1,250", 1250),  # a whole-number field has no decimal comma
        (HITS, "1.0", 1),
        (HITS, "1.00", 1),
    ],
)
def test_the_unambiguous_forms_are_read(param, text, value):
    assert param.parse(text) == value


@pytest.mark.parametrize(
    ("param", "text", "value"),
    [
        (WEIGHT, "1e3", 1000.0),
        (WEIGHT, "1E3", 1000.0),
        (WEIGHT, "2.5e-4", 0.00025),
        (WEIGHT, "1e-05", 0.00001),  # as Python prints 0.00001 (str(1e-05))
        (WEIGHT, "1.5e+2", 150.0),
        (WEIGHT, ".5e1", 5.0),
        (WEIGHT, "5.e0", 5.0),
        (WEIGHT, "1e\u22122", 0.01),
        (OFFSET, "-2e1", -20.0),
        (HITS, "1e3", 1000),
        (HITS, "1.5e1", 15),
        (HITS, "100e-2", 1),
    ],
)
def test_exponent_notation_is_read(param, text, value):
    assert param.parse(text) == value


def test_an_exponent_out_of_range_gets_the_range_message_which_is_true():
    assert _refusal(WEIGHT, "1e7") == "Weight must be a number from 0 to 1,000,000 kg."
    assert WEIGHT.parse("1e6") == 1e6  # the bound itself is in range
    assert _refusal(HITS, "1.25e1") == "Hits must be a whole number from -5 to 100,000."


@pytest.mark.parametrize("value", [0.1, 2.5, 1e-05, 1e-07, 123456.75, 1e6, 0.0001, 3.0, 1250.0])
def test_a_value_the_site_writes_reads_back_as_itself(value):
    from ruleslab.whatif.inputs import as_text

    assert WEIGHT.parse(as_text(value)) == value


@pytest.mark.parametrize("param", [WEIGHT, HITS])
def test_the_notation_is_said_in_a_sentence(param):
    text = param.notation()
    assert "1e3 is 1000" in text
    assert ("1,250 could be either" in text) == (param is WEIGHT)


@pytest.mark.parametrize("param", [WEIGHT, HITS])
@pytest.mark.parametrize(
    "text", ["9" * 5000, "1," + "000," * 2000 + "000", "1" + " 000" * 3000, "1" * 100_000]
)
def test_huge_text_is_refused_quickly_with_the_message(param, text):
    import time

    start = time.perf_counter()
    message = _refusal(param, text)
    assert time.perf_counter() - start < 0.5  # linear, and bounded: well under a second
    assert param.label in message


def test_number_check_refuses_an_int_too_large_for_a_float():
    with pytest.raises(InputError, match="Weight must be a number from 0 to 1,000,000 kg"):
        WEIGHT.check(10**400)


@pytest.mark.parametrize("value", [[], ["a"], {}, {"a": "A"}, {"a"}, ("a",), None, 1])
def test_choice_param_refuses_any_value_with_its_message(value):
    pick = ChoiceParam("c", "Ruleset", choices=(("a", "A"), ("b", "B")))
    with pytest.raises(InputError) as err:
        pick.check(value)
    assert err.value.field == "c"
    assert err.value.message == "Ruleset must be one of a = A, b = B."
    with pytest.raises(InputError):
        pick.parse(value)


@pytest.mark.parametrize(
    ("value", "text"),
    [(200.0, "200"), (0.0, "0"), (2.5, "2.5"), (1500.0, "1,500"), (12.25, "12.25")],
)
def test_a_number_is_shown_as_a_reader_writes_it(value, text):
    # (a scenario's legend and the working name inputs by it: "Object's weight 200 kg")
    weight = NumberParam("weight", "Weight", minimum=0.0, maximum=10_000.0, unit="kg")
    assert weight.shown(value) == text
