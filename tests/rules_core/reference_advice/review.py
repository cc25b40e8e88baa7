"""RULES.md 15.6 from the rules alone: a hand record replayed event by event, each DISCARD reviewed
with the reference advice of the holding just before it and the tiles then seen face up; a
discard after a seat's knocking discard (the one right after its DECLARE) is forced, and where
dragons are flowers a drawn dragon joins the seat's dragon flowers (14.6). The passes (漏胡) are
section 13's, taken from the engine's `settle_record_json`."""

from __future__ import annotations

from rules_core import settle_record_json
from tests.rules_core.reference_families.profiles import effective

from .advice import TILE_INDEX, advise
from .families import FAMILY_PROFILES

DRAGON_TILES = ("TILE_RED", "TILE_GREEN", "TILE_WHITE")

MELD_OF_CLAIM = {
    "EVENT_KIND_CHOW": "MELD_KIND_CHOW",
    "EVENT_KIND_PUNG": "MELD_KIND_PUNG",
    "EVENT_KIND_EXPOSED_KONG": "MELD_KIND_EXPOSED_KONG",
}


class Seat:
    def __init__(self) -> None:
        self.concealed: list = []
        self.melds: list = []  # dicts as AdviseRequest's Hand.melds
        self.flowers: list = []
        self.dragon_flowers: list = []
        self.knocked = False  # its knocking discard is done: later discards are forced
        self.declared = False

    def hand(self) -> dict:
        hand = {"concealed": sorted(self.concealed, key=TILE_INDEX.get), "melds": self.melds}
        if self.flowers:
            hand["flowers"] = list(self.flowers)
        if self.dragon_flowers:
            hand["dragonFlowers"] = list(self.dragon_flowers)
        return hand

    def take(self, tile: str, copies: int = 1) -> None:
        for _ in range(copies):
            self.concealed.remove(tile)


def _seen(seats: list, table: list, seat: int) -> list:
    seen = list(table)
    for s, other in enumerate(seats):
        if s != seat:
            for meld in other.melds:
                if meld["kind"] != "MELD_KIND_CONCEALED_KONG":
                    seen.extend(meld["tiles"])
    return sorted(seen, key=TILE_INDEX.get)


def review(record: dict) -> dict:
    """The ReviewRecordResponse of RULES.md 15.6 for a SettleRecordRequest (proto3 JSON), less
    `engineVersion` and `profileDigest`."""
    passes = settle_record_json(record).get("passes", [])
    seats = [Seat() for _ in range(4)]
    table: list = []  # discards not claimed since, in order
    last_discard = None
    reviews = []
    context = {k: v for k, v in record.items() if k in ("profile", "overrides", "dealerSeat", "dice", "huangfanCount")}
    family = record["profile"] in FAMILY_PROFILES
    dragons = family and effective(record["profile"], record.get("overrides")).dragons_are_flowers
    dragon_flowers = DRAGON_TILES if dragons else ()
    for index, event in enumerate(record["events"]):
        kind, s = event["kind"], event.get("seat", 0)
        seat = seats[s]
        if kind == "EVENT_KIND_DEAL":
            seat.concealed = list(event.get("tiles", []))
            seat.flowers = list(event.get("flowers", []))
            seat.dragon_flowers = list(event.get("dragonFlowers", []))
        elif kind == "EVENT_KIND_DRAW":
            if event.get("tile") in dragon_flowers:  # 14.6: a drawn dragon is a flower there
                seat.dragon_flowers.append(event["tile"])
            elif "tile" in event:
                seat.concealed.append(event["tile"])
            else:
                seat.flowers.append(event["flower"])
        elif kind == "EVENT_KIND_DISCARD":
            tile = event["tile"]
            request = dict(context, seat=s, hand=seat.hand(), seen=_seen(seats, table, s))
            reviews.append(_review_discard(index, s, tile, advise(request), forced=seat.knocked))
            if seat.declared:
                seat.knocked, seat.declared = True, False
            seat.take(tile)
            table.append(tile)
            last_discard = (event.get("seat", 0), tile)
        elif kind in MELD_OF_CLAIM:
            source, tile = last_discard
            table.pop()
            own = (
                list(event.get("tiles", []))
                if kind == "EVENT_KIND_CHOW"
                else [tile] * (2 if kind == "EVENT_KIND_PUNG" else 3)
            )
            for t in own:
                seat.take(t)
            tiles = sorted(own + [tile], key=TILE_INDEX.get)
            seat.melds.append({"kind": MELD_OF_CLAIM[kind], "tiles": tiles, "fromSeat": source})
        elif kind == "EVENT_KIND_ADDED_KONG":
            tile = event["tile"]
            seat.take(tile)
            for meld in seat.melds:
                if meld["kind"] == "MELD_KIND_PUNG" and meld["tiles"][0] == tile:
                    meld["kind"], meld["tiles"] = "MELD_KIND_ADDED_KONG", [tile] * 4
                    break
        elif kind == "EVENT_KIND_CONCEALED_KONG":
            seat.take(event["tile"], 4)
            seat.melds.append({"kind": "MELD_KIND_CONCEALED_KONG", "tiles": [event["tile"]] * 4})
        elif kind == "EVENT_KIND_DECLARE":
            seat.declared = True
    summaries = []
    for s in range(4):
        mine = [r for r in reviews if r["seat"] == s]
        counted = [r for r in mine if r["reachable"] and not r["forced"]]
        summaries.append(
            {
                "seat": s,
                "discards": len(mine),
                "agreements": sum(r["agrees"] for r in counted),
                "backward": sum(r["backward"] for r in counted),
                "deadDiscards": sum(not r["reachable"] for r in mine),
                "forcedDiscards": sum(r["forced"] for r in mine),
                "passes": [p for p in passes if p.get("seat", 0) == s],
            }
        )
    return {"requestId": record.get("requestId", ""), "discards": reviews, "seats": summaries}


def _review_discard(index: int, seat: int, tile: str, advice: dict, forced: bool) -> dict:
    row = {"eventIndex": index, "seat": seat, "reachable": advice["reachable"], "discarded": tile}
    if not advice["reachable"]:
        return dict(row, bestTiles=[], agrees=False, backward=False, forced=forced)
    options = advice["options"]
    chosen = next(o for o in options if o["tile"] == tile)
    best = [o for o in options if o["best"]]
    return dict(
        row,
        shanten=advice["shanten"],
        chosen=chosen,
        bestTiles=sorted((o["tile"] for o in best), key=TILE_INDEX.get),
        agrees=chosen["best"],
        backward=chosen["shanten"] > best[0]["shanten"],
        forced=forced,
    )
