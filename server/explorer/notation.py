"""``POST /explorer/notation``: read hands written in RULES.md notation into the proto3 JSON of
a ``Winner``'s fields, or say where each one fails.

Body: ``{"hand": "111m 555m 999p EEE 77s", "melds": "[123p@1]", "win": "7s", "flowers": "1f 5f Cf",
"passed": "5m", "seen": "7s C", "dice": "3,3", "claims": "1:2:3:kept", "declared": "0,2"}`` (every
key optional). Answer: ``{"hand": {...}, "passedTiles": [...], "seen": [...], "dice": {...},
"liabilities": [...], "declaredSeats": [...], "errors": []}`` where ``hand`` is a ``Hand`` message
in JSON (the melds of ``melds`` after those written in ``hand``; dragon flowers ``Cf`` in its
``dragonFlowers``), ``seen`` the tiles of an ``AdviseRequest``'s ``seen``, ``dice`` a ``Dice``
(null when not given), ``liabilities`` the ``LiabilityRelation``s and ``declaredSeats`` the seats
that have knocked (敲, RULES.md section 14); or ``errors``, one per field that cannot be read:
``{"field": "win", "position": 1, "message": "..."}`` (position is the character offset). Dice,
claims and seats are read by `rules_core.table_notation`, as the CLI reads them.
"""

from __future__ import annotations

from convert.json_names import FLOWER, MELD_KIND, TILE
from rules_core.errors import NotationError, excerpt
from rules_core.notation import parse_all_flowers, parse_hand, parse_melds, parse_tile, parse_tiles
from rules_core.table_notation import parse_claims, parse_dice, parse_seats
from server.explorer.bodies import BadExplorerBody, read_object

FIELDS = ("hand", "melds", "win", "flowers", "passed", "seen", "dice", "claims", "declared")
MAX_TEXT = 400  # a hand with every meld and flower is under 100 characters
# every tile but one's own, written one by one ("1m 1m 1m 1m 2m ..."): 3 characters a tile
MAX_SEEN_TEXT = 3 * 136


class BadNotationRequest(BadExplorerBody):
    """A body that is not a JSON object of strings under ``FIELDS``."""


def read_body(body: bytes) -> dict[str, str]:
    data = read_object(body, FIELDS, '{"hand": "123m ...", "win": "7s"}')
    for key, value in data.items():
        if not isinstance(value, str):
            raise BadNotationRequest(f"{key}: expected a string, got {excerpt(value)}")
        limit = MAX_SEEN_TEXT if key == "seen" else MAX_TEXT
        if len(value) > limit:
            raise BadNotationRequest(f"{key}: longer than {limit} characters")
    return data


def _tiles(tiles) -> list[str]:
    return [TILE.name_of[t] for t in tiles]


def _melds(melds) -> list[dict]:
    return [{"kind": MELD_KIND.name_of[m.kind], "tiles": _tiles(m.tiles), "fromSeat": m.from_seat} for m in melds]


def read_notation(fields: dict[str, str]) -> dict:
    """The hand in proto3 JSON, or the errors with their positions; never raises for a user's text."""
    errors: list[dict] = []
    hand: dict = {"concealed": [], "melds": [], "flowers": [], "dragonFlowers": []}
    passed: list[str] = []
    seen: list[str] = []

    def attempt(field: str, read):
        try:
            return read(fields[field])
        except NotationError as error:
            errors.append({"field": field, "position": error.position, "message": error.message})
            return None

    if fields.get("hand", "").strip():
        parsed = attempt("hand", parse_hand)
        if parsed is not None:
            hand["concealed"] = _tiles(parsed.concealed)
            hand["melds"] = _melds(parsed.melds)
            hand["flowers"] = [FLOWER.name_of[f] for f in parsed.flowers]
            hand["dragonFlowers"] = _tiles(parsed.dragon_flowers)
    if fields.get("melds", "").strip():
        melds = attempt("melds", parse_melds)
        hand["melds"] += _melds(melds or ())
    if fields.get("win", "").strip():
        tile = attempt("win", parse_tile)
        if tile is not None:
            hand["winningTile"] = TILE.name_of[tile]
    if fields.get("flowers", "").strip():
        found = attempt("flowers", parse_all_flowers)
        if found is not None:
            hand["flowers"] += [FLOWER.name_of[f] for f in found[0]]
            hand["dragonFlowers"] += _tiles(found[1])
    if fields.get("passed", "").strip():
        tiles = attempt("passed", parse_tiles)
        if tiles is not None:
            passed = _tiles(tiles)
    if fields.get("seen", "").strip():
        tiles = attempt("seen", parse_tiles)
        if tiles is not None:
            seen = _tiles(tiles)
    dice = None
    if fields.get("dice", "").strip():
        found = attempt("dice", parse_dice)
        if found is not None:
            dice = {"first": found[0], "second": found[1]}
    liabilities = []
    if fields.get("claims", "").strip():
        claims = attempt("claims", parse_claims)
        liabilities = [
            {"claimerSeat": c.claimer_seat, "sourceSeat": c.source_seat, "claims": c.claims}
            | ({"patternKept": True} if c.pattern_kept else {})
            for c in claims or ()
        ]
    declared: list[int] = []
    if fields.get("declared", "").strip():
        declared = list(attempt("declared", parse_seats) or ())
    return {
        "hand": hand,
        "passedTiles": passed,
        "seen": seen,
        "dice": dice,
        "liabilities": liabilities,
        "declaredSeats": declared,
        "errors": errors,
    }
