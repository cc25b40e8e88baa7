"""Tiles as short strings (`1m` ... `9s`, `E S W N`, `C F P`), their proto3 JSON names, and the
notation of RULES.md section 2 turned into a request's JSON hand."""

from __future__ import annotations

SUITS = "mps"
WINDS = "ESWN"
DRAGONS = "CFP"
SUITED = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10))
HONOURS = tuple(WINDS + DRAGONS)
TILES = SUITED + HONOURS

_HONOUR_NAMES = {"E": "EAST", "S": "SOUTH", "W": "WEST", "N": "NORTH", "C": "RED", "F": "GREEN", "P": "WHITE"}
TILE_NAME = {t: f"TILE_{t[1].upper()}{t[0]}" for t in SUITED} | {h: f"TILE_{n}" for h, n in _HONOUR_NAMES.items()}
TILE_OF = {name: t for t, name in TILE_NAME.items()}

SEASONS = ("SPRING", "SUMMER", "AUTUMN", "WINTER", "PLUM", "ORCHID", "BAMBOO", "CHRYSANTHEMUM")
FLOWER_NAME = {str(i + 1): f"FLOWER_{n}" for i, n in enumerate(SEASONS)}
FLOWER_OF = {name: digit for digit, name in FLOWER_NAME.items()}

MELD_KIND = {
    "chow": "MELD_KIND_CHOW",
    "pung": "MELD_KIND_PUNG",
    "exposed_kong": "MELD_KIND_EXPOSED_KONG",
    "added_kong": "MELD_KIND_ADDED_KONG",
    "concealed_kong": "MELD_KIND_CONCEALED_KONG",
}
MELD_KIND_OF = {name: kind for kind, name in MELD_KIND.items()}


def is_honour(tile: str) -> bool:
    return tile in HONOURS


def is_wind(tile: str) -> bool:
    return tile in WINDS


def is_dragon(tile: str) -> bool:
    return tile in DRAGONS


def suit(tile: str) -> str | None:
    return None if is_honour(tile) else tile[1]


def _tiles(token: str) -> list[str]:
    """`123m` -> 1m 2m 3m; `EEN` -> E E N."""
    if token[-1] in SUITS:
        return [f"{d}{token[-1]}" for d in token[:-1]]
    if all(c in HONOURS for c in token):
        return list(token)
    raise ValueError(f"bad tiles {token!r}")


def _meld(token: str) -> dict:
    body, _, source = token[1:-1].partition("@")
    added = body.endswith("+")
    tiles = _tiles(body.rstrip("+"))
    if len(tiles) == 3:
        kind = "pung" if tiles[0] == tiles[1] else "chow"
    elif added:
        kind = "added_kong"
    else:
        kind = "exposed_kong" if source else "concealed_kong"
    meld = {"kind": MELD_KIND[kind], "tiles": [TILE_NAME[t] for t in tiles]}
    if source:
        meld["fromSeat"] = int(source)
    return meld


def hand(text: str, win: str | None = None) -> dict:
    """`123m 456p EE [123m@3] 1f Cf` as a JSON `Hand`: concealed tiles, melds, flowers and dragon
    flowers; ``win`` the winning tile (left out for an eight-flowers claim)."""
    concealed: list[str] = []
    melds: list[dict] = []
    flowers: list[str] = []
    dragon_flowers: list[str] = []
    for token in text.split():
        if token.startswith("["):
            melds.append(_meld(token))
        elif token.endswith("f"):
            (dragon_flowers if token[0] in DRAGONS else flowers).append(token[0])
        else:
            concealed.extend(_tiles(token))
    out: dict = {"concealed": [TILE_NAME[t] for t in concealed]}
    if win:
        out["winningTile"] = TILE_NAME[win]
    if melds:
        out["melds"] = melds
    if flowers:
        out["flowers"] = [FLOWER_NAME[f] for f in flowers]
    if dragon_flowers:
        out["dragonFlowers"] = [TILE_NAME[t] for t in dragon_flowers]
    return out


def notation(hand_json: dict) -> str:
    """The JSON hand back in RULES.md notation, for messages."""
    parts = [" ".join(TILE_OF[t] for t in hand_json.get("concealed", []))]
    for meld in hand_json.get("melds", []):
        kind = MELD_KIND_OF[meld["kind"]]
        body = "".join(TILE_OF[t] for t in meld["tiles"]) + ("+" if kind == "added_kong" else "")
        source = "" if kind == "concealed_kong" else f"@{meld.get('fromSeat', 0)}"
        parts.append(f"[{body}{source}]")
    parts += [f"{FLOWER_OF[f]}f" for f in hand_json.get("flowers", [])]
    parts += [f"{TILE_OF[t]}f" for t in hand_json.get("dragonFlowers", [])]
    return " ".join(p for p in parts if p)
