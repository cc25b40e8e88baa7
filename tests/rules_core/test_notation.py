import pytest

from rules_core import Flower, MeldKind, NotationError, Tile, format_hand, parse_hand, parse_tiles


def test_reads_every_element_of_section_2():
    hand = parse_hand("123m 456p EEE 77s [555p@1] [5555p+@1] [1111m] [123m@3] [5555s@2] 1f 5f")
    assert hand.concealed[:3] == (Tile.M1, Tile.M2, Tile.M3)
    assert hand.concealed[6:9] == (Tile.EAST,) * 3
    kinds = [(m.kind, m.from_seat) for m in hand.melds]
    assert kinds == [
        (MeldKind.PUNG, 1),
        (MeldKind.ADDED_KONG, 1),
        (MeldKind.CONCEALED_KONG, 0),
        (MeldKind.CHOW, 3),
        (MeldKind.EXPOSED_KONG, 2),
    ]
    assert hand.flowers == (Flower.SPRING, Flower.PLUM)


def test_honour_letters():
    assert parse_tiles("ESWNCFP") == (
        Tile.EAST,
        Tile.SOUTH,
        Tile.WEST,
        Tile.NORTH,
        Tile.RED,
        Tile.GREEN,
        Tile.WHITE,
    )


def test_printing_reads_back_the_same_hand():
    text = "123m 456p 77s EEE [555p@1] [5555p+@1] [1111m] 1f 5f"
    hand = parse_hand(text)
    assert format_hand(hand.concealed, hand.melds, hand.flowers) == text
    assert parse_hand(format_hand(hand.concealed, hand.melds, hand.flowers)) == hand


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("123x", 3, "unexpected 'x'"),
        ("123", 3, "numbers must end with a suit letter"),
        ("0m", 0, "tile numbers run from 1 to 9"),
        ("9f", 0, "flowers run from 1f to 8f"),
        ("[555p", 0, "never closed"),
        ("[55p@1]", 1, "a meld holds 3 or 4 tiles"),
        ("[555p@7]", 6, "source seat is 0, 1, 2 or 3"),
        ("[555p]", 5, "names its source seat"),
        ("m12", 0, "must follow the tile numbers"),
        ("EE Ef", 3, "only the dragons are flowers: Cf Ff Pf (中发白)"),
        ("[CCCf@1]", 3, "a dragon flower (Cf) cannot be written here"),
        ("12Cf", 2, "numbers must end with a suit letter m, p, s or f"),
    ],
)
def test_bad_notation_says_where(text, position, message):
    with pytest.raises(NotationError) as error:
        parse_hand(text)
    assert error.value.position == position
    assert message in error.value.message


def test_dragon_flowers_are_written_among_the_flowers():
    """RULES.md 14.1: a dragon held as a flower (`dragons_are_flowers`) is ``Cf``, ``Ff`` or ``Pf``."""
    hand = parse_hand("123m 456p 789s 234s EE 1f 2f Cf Ff Cf")
    assert hand.concealed[-2:] == (Tile.EAST, Tile.EAST)
    assert hand.flowers == (Flower.SPRING, Flower.SUMMER)
    assert hand.dragon_flowers == (Tile.RED, Tile.GREEN, Tile.RED)
    assert format_hand(hand.concealed, hand.melds, hand.flowers, hand.dragon_flowers) == (
        "123m 456p 234789s EE 1f 2f Cf Cf Ff"
    )
    assert parse_hand("CFP").dragon_flowers == () and parse_hand("CFPf").dragon_flowers == (Tile.WHITE,)
