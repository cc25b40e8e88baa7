"""The tile notation of RULES.md section 2.

``123m 456p EEE 77s`` concealed tiles; ``[123m@3]`` a chow claimed from seat 3;
``[555p@1]`` a pung; ``[5555p@1]`` an exposed kong; ``[5555p+@1]`` an added kong;
``[5555p]`` a concealed kong; ``1f 5f`` flowers, and ``Cf Ff Pf`` 中发白 held as flowers under
`dragons_are_flowers` (RULES.md section 14: `Hand.dragon_flowers`). Spaces between groups are
optional.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from rules_core.errors import NotationError
from rules_core.requests import Meld, MeldKind
from rules_core.tiles import FIRST_DRAGON, FIRST_HONOUR, HONOUR_LETTERS, SUIT_LETTERS, Flower, Tile


@dataclass(frozen=True)
class ParsedHand:
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    flowers: tuple[Flower, ...]
    dragon_flowers: tuple[Tile, ...] = ()  # Cf Ff Pf


def parse_hand(text: str) -> ParsedHand:
    """Read concealed tiles, bracketed melds, flowers and dragon flowers from one string."""
    concealed: list[Tile] = []
    melds: list[Meld] = []
    flowers: list[Flower] = []
    dragons: list[Tile] = []
    pos = 0
    while pos < len(text):
        char = text[pos]
        if char.isspace():
            pos += 1
        elif char == "[":
            end = text.find("]", pos)
            if end < 0:
                raise NotationError(text, pos, "meld opened with '[' is never closed")
            melds.append(_parse_meld(text, pos + 1, end))
            pos = end + 1
        else:
            pos = _parse_tiles(text, pos, len(text), concealed, flowers, stop_at="[", dragons=dragons)
    return ParsedHand(tuple(concealed), tuple(melds), tuple(flowers), tuple(dragons))


def parse_melds(text: str) -> tuple[Meld, ...]:
    """Read bracketed melds only, such as ``[555p@1] [5555p]``."""
    melds: list[Meld] = []
    pos = 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        if text[pos] != "[":
            raise NotationError(text, pos, "melds are written in brackets, as in '[555p@1]'")
        end = text.find("]", pos)
        if end < 0:
            raise NotationError(text, pos, "meld opened with '[' is never closed")
        melds.append(_parse_meld(text, pos + 1, end))
        pos = end + 1
    return tuple(melds)


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Read a plain run of tiles, such as ``123m EEE`` (no melds, no flowers)."""
    tiles: list[Tile] = []
    flowers: list[Flower] = []
    _parse_tiles(text, 0, len(text), tiles, flowers, stop_at="")
    if flowers:
        raise NotationError(text, text.find("f"), "flowers are not tiles here")
    return tuple(tiles)


def parse_tile(text: str) -> Tile:
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(text, 0, f"expected exactly one tile, read {len(tiles)}")
    return tiles[0]


def parse_flowers(text: str) -> tuple[Flower, ...]:
    """The eight flowers ``1f``-``8f`` only (a dragon flower ``Cf`` is refused)."""
    tiles: list[Tile] = []
    flowers: list[Flower] = []
    _parse_tiles(text, 0, len(text), tiles, flowers, stop_at="")
    if tiles:
        raise NotationError(text, 0, "expected flowers such as '1f 5f', found tiles")
    return tuple(flowers)


def parse_all_flowers(text: str) -> tuple[tuple[Flower, ...], tuple[Tile, ...]]:
    """(the flowers, the dragon flowers) of ``1f 5f Cf Pf``."""
    tiles: list[Tile] = []
    flowers: list[Flower] = []
    dragons: list[Tile] = []
    _parse_tiles(text, 0, len(text), tiles, flowers, stop_at="", dragons=dragons)
    if tiles:
        raise NotationError(text, 0, "expected flowers such as '1f 5f Cf', found tiles")
    return tuple(flowers), tuple(dragons)


def _parse_tiles(text, pos, end, tiles, flowers, stop_at, dragons=None) -> int:
    """Tiles into ``tiles``, flowers into ``flowers``, and dragon flowers (``Cf``) into
    ``dragons``, where they may be written (None: not here)."""
    digits_start = -1
    while pos < end:
        char = text[pos]
        if char in stop_at:
            break
        if char in HONOUR_LETTERS and pos + 1 < end and text[pos + 1] == "f":
            if digits_start >= 0:
                raise NotationError(text, pos, "numbers must end with a suit letter m, p, s or f")
            tile = Tile(FIRST_HONOUR + HONOUR_LETTERS.index(char))
            if tile < FIRST_DRAGON:
                raise NotationError(text, pos, "only the dragons are flowers: Cf Ff Pf (中发白)")
            if dragons is None:
                raise NotationError(text, pos, f"a dragon flower ({char}f) cannot be written here")
            dragons.append(tile)
            pos += 2
            continue
        if char.isspace():
            if digits_start >= 0:
                raise NotationError(text, pos, "numbers must end with a suit letter m, p, s or f")
        elif char.isdigit():
            if char == "0":
                raise NotationError(text, pos, "tile numbers run from 1 to 9")
            if digits_start < 0:
                digits_start = pos
        elif char in SUIT_LETTERS or char == "f":
            if digits_start < 0:
                raise NotationError(text, pos, f"'{char}' must follow the tile numbers, as in '123{char}'")
            for offset, digit in enumerate(text[digits_start:pos]):
                number = int(digit)
                if char == "f":
                    if number > 8:
                        raise NotationError(text, digits_start + offset, "flowers run from 1f to 8f")
                    flowers.append(Flower(number))
                else:
                    tiles.append(Tile(SUIT_LETTERS.index(char) * 9 + number - 1))
            digits_start = -1
        elif char in HONOUR_LETTERS:
            if digits_start >= 0:
                raise NotationError(text, pos, "numbers must end with a suit letter m, p, s or f")
            tiles.append(Tile(FIRST_HONOUR + HONOUR_LETTERS.index(char)))
        else:
            raise NotationError(
                text, pos, f"unexpected '{char}': tiles are 1-9 with m/p/s, E S W N C F P, flowers 1f-8f"
            )
        pos += 1
    if digits_start >= 0:
        raise NotationError(text, pos, "numbers must end with a suit letter m, p, s or f")
    return pos


def _parse_meld(text: str, start: int, end: int) -> Meld:
    body_end = end
    from_seat = None
    at = text.find("@", start, end)
    if at >= 0:
        seat_text = text[at + 1 : end].strip()
        if not seat_text.isdigit() or int(seat_text) > 3:
            raise NotationError(text, at + 1, "a meld's source seat is 0, 1, 2 or 3, as in '[555p@1]'")
        from_seat = int(seat_text)
        body_end = at
    added = text[start:body_end].rstrip().endswith("+")
    if added:
        body_end = text.rfind("+", start, body_end)
    tiles: list[Tile] = []
    flowers: list[Flower] = []
    _parse_tiles(text, start, body_end, tiles, flowers, stop_at="")
    if flowers:
        raise NotationError(text, start, "flowers cannot be melded")
    if len(tiles) == 3:
        kind = MeldKind.PUNG if tiles[0] == tiles[1] == tiles[2] else MeldKind.CHOW
    elif len(tiles) == 4:
        if added:
            kind = MeldKind.ADDED_KONG
        elif from_seat is None:
            kind = MeldKind.CONCEALED_KONG
        else:
            kind = MeldKind.EXPOSED_KONG
    else:
        raise NotationError(text, start, f"a meld holds 3 or 4 tiles, this one {len(tiles)}")
    if added and len(tiles) != 4:
        raise NotationError(text, start, "'+' marks an added kong of four tiles")
    if kind != MeldKind.CONCEALED_KONG and from_seat is None:
        raise NotationError(text, end, "a claimed meld names its source seat, as in '[555p@1]'")
    return Meld(kind, tuple(tiles), from_seat if from_seat is not None else 0)


def format_tiles(tiles) -> str:
    """Print tiles sorted, suited ones grouped by suit and honours by kind: ``111555m 999p EEE 77s``."""
    groups: list[str] = []
    for _, run in groupby(sorted(tiles), key=_group_key):
        run = [Tile(t) for t in run]
        if run[0].is_honour:
            groups.append("".join(t.notation for t in run))
        else:
            groups.append("".join(str(t % 9 + 1) for t in run) + SUIT_LETTERS[run[0].suit])
    return " ".join(groups)


def _group_key(tile: int) -> int:
    return tile // 9 if tile < FIRST_HONOUR else tile


def format_meld(meld: Meld) -> str:
    body = format_tiles(meld.tiles).replace(" ", "")
    if meld.kind == MeldKind.CONCEALED_KONG:
        return f"[{body}]"
    plus = "+" if meld.kind == MeldKind.ADDED_KONG else ""
    return f"[{body}{plus}@{meld.from_seat}]"


def format_flowers(flowers, dragon_flowers=()) -> str:
    """``1f 5f``, and the dragon flowers after them: ``1f 5f Cf Cf Pf``."""
    return " ".join(
        [*(f"{int(f)}f" for f in sorted(flowers)), *(f"{Tile(t).notation}f" for t in sorted(dragon_flowers))]
    )


def format_hand(concealed, melds=(), flowers=(), dragon_flowers=()) -> str:
    parts = [format_tiles(concealed)] if concealed else []
    parts += [format_meld(m) for m in melds]
    if flowers or dragon_flowers:
        parts.append(format_flowers(flowers, dragon_flowers))
    return " ".join(parts)
