"""RULES.md 15.4-15.5 from the rules alone: useful tiles, live counts, options, order, best, waits.
Values are the settlement of a self-draw, as 15.5 defines them: the engine's `settle_json` under
`classic`, `sankou` and `lezi`, and under the profiles of section 14 the independent reference of
tests/rules_core/reference_families, by the seat counted as having knocked."""

from __future__ import annotations

from rules_core import settle_json
from tests.rules_core.reference_families import reference_settle
from tests.rules_core.reference_families.profiles import effective

from .distance import ORDINARY, Melds, path_distances
from .families import FAMILY_PROFILES, FamilyMelds, family_path_distances

TILE_NAMES = (
    [f"TILE_M{n}" for n in range(1, 10)]
    + [f"TILE_P{n}" for n in range(1, 10)]
    + [f"TILE_S{n}" for n in range(1, 10)]
    + ["TILE_EAST", "TILE_SOUTH", "TILE_WEST", "TILE_NORTH", "TILE_RED", "TILE_GREEN", "TILE_WHITE"]
)
TILE_INDEX = {name: i for i, name in enumerate(TILE_NAMES)}
PATTERN_NAMES = {
    1: "PATTERN_ALL_PUNGS",
    2: "PATTERN_HALF_FLUSH",
    3: "PATTERN_FULL_FLUSH",
    4: "PATTERN_HALF_FLUSH_PUNGS",
    5: "PATTERN_FULL_FLUSH_PUNGS",
    6: "PATTERN_ALL_HONOURS",
    7: "PATTERN_ALL_HONOURS_PUNGS",
    8: "PATTERN_EIGHT_FLOWERS",
    9: "PATTERN_BIG_HANGING",
    10: "PATTERN_HEAVENLY",
    11: "PATTERN_EARTHLY",
    12: "PATTERN_KONG_BLOOM",
    13: "PATTERN_CONCEALED",
    14: "PATTERN_ROBBING_KONG",
    15: "PATTERN_SEVEN_PAIRS",
    ORDINARY: "PATTERN_UNSPECIFIED",
}
PATTERN_NUMBERS = {name: n for n, name in PATTERN_NAMES.items()}
SUIT_NAMES = ("SUIT_CHARACTERS", "SUIT_DOTS", "SUIT_BAMBOO")
QUALIFYING = {  # section 4
    "classic": set(range(1, 13)),
    "sankou": set(range(1, 13)),
    "lezi": set(range(1, 9)),
}


class Rules:
    def __init__(self, request: dict) -> None:
        overrides = request.get("overrides", {})
        self.family = effective(request["profile"], overrides) if request["profile"] in FAMILY_PROFILES else None
        if self.family is not None:
            return
        if "qualifyingPatterns" in overrides:
            self.qualifying = {PATTERN_NUMBERS[p] for p in overrides["qualifyingPatterns"]}
        else:
            self.qualifying = set(QUALIFYING[request["profile"]])
        self.ordinary_wins = bool(overrides.get("ordinaryHandWins", False))
        self.seven_pairs = bool(overrides.get("sevenPairs", False))


class Holding:
    def __init__(self, hand: dict) -> None:
        self.concealed = [TILE_INDEX[t] for t in hand.get("concealed", [])]
        self.meld_list = [(m["kind"], [TILE_INDEX[t] for t in m["tiles"]]) for m in hand.get("melds", [])]
        self.melds = Melds(self.meld_list)
        flower_tiles = len(set(hand.get("flowers", []))) + len(hand.get("dragonFlowers", []))
        self.family_melds = FamilyMelds(self.meld_list, flower_tiles)
        self.hand = hand

    def counts(self, extra: int | None = None, without: int | None = None) -> list:
        c = [0] * 34
        for t in self.concealed:
            c[t] += 1
        if extra is not None:
            c[extra] += 1
        if without is not None:
            c[without] -= 1
        return c

    def held(self) -> list:
        c = self.counts()
        return [c[t] + self.melds.copies[t] for t in range(34)]


class Advisor:
    def __init__(self, request: dict) -> None:
        self.request = request
        self.rules = Rules(request)
        self.holding = Holding(request["hand"])
        self.seen = [0] * 34
        for t in request.get("seen", []):
            self.seen[TILE_INDEX[t]] += 1
        self._cache: dict = {}

    def paths(self, counts: list) -> dict:
        key = tuple(counts)
        if key not in self._cache:
            r = self.rules
            if r.family is not None:
                self._cache[key] = family_path_distances(counts, self.holding.family_melds, r.family)
                return self._cache[key]
            self._cache[key] = path_distances(counts, self.holding.melds, r.qualifying, r.ordinary_wins, r.seven_pairs)
        return self._cache[key]

    def shanten(self, counts: list) -> int | None:
        paths = self.paths(counts)
        return min(paths.values()) - 1 if paths else None

    def useful(self, counts: list, shanten: int) -> list:
        out = []
        for t in range(34):
            counts[t] += 1
            if self.shanten(counts) == shanten - 1:
                out.append(t)
            counts[t] -= 1
        return out

    def live(self, held: list, t: int) -> int:
        return max(0, 4 - held[t] - self.seen[t])

    def value(self, counts: list, tile: int) -> float:
        concealed = [TILE_NAMES[t] for t in range(34) for _ in range(counts[t])]
        hand = dict(self.holding.hand, concealed=concealed, winningTile=TILE_NAMES[tile])
        settle = {
            k: v
            for k, v in self.request.items()
            if k in ("profile", "overrides", "dealerSeat", "dice", "huangfanCount")
        }
        seat = self.request.get("seat", 0)
        settle.update(outcome="OUTCOME_SELF_DRAW", winners=[{"seat": seat, "hand": hand}])
        if self.rules.family is not None:  # 15.2: the seat counted as having knocked
            winner = reference_settle(dict(settle, declaredSeats=[seat]))["winners"][0]
        else:
            winner = settle_json(settle)["winners"][0]
        assert winner["legal"], ("a reference wait that the engine's settle finds illegal", concealed, tile, winner)
        return float(winner["value"])

    def waiting_answer(self, counts: list, held: list) -> dict:
        """useful, live_total, waits, live_value of a 13-tile holding."""
        shanten = self.shanten(counts)
        useful = self.useful(counts, shanten)
        rows = [{"tile": TILE_NAMES[t], "live": self.live(held, t)} for t in useful]
        waits = []
        if shanten == 0:
            for t in useful:
                counts[t] += 1
                waits.append({"tile": TILE_NAMES[t], "live": self.live(held, t), "value": self.value(counts, t)})
                counts[t] -= 1
        return {
            "shanten": shanten,
            "useful": rows,
            "liveTotal": sum(r["live"] for r in rows),
            "waits": waits,
            "liveValue": float(sum(w["live"] * w["value"] for w in waits)),
        }

    def answer(self) -> dict:
        counts = self.holding.counts()
        paths = self.paths(counts)
        out = {"requestId": self.request.get("requestId", ""), "reachable": bool(paths)}
        empty = {"paths": [], "useful": [], "liveTotal": 0, "waits": [], "liveValue": 0.0, "options": []}
        if not paths:
            return dict(out, **empty)
        out["shanten"] = min(paths.values()) - 1
        out["paths"] = [
            {"pattern": PATTERN_NAMES[p], "suit": "SUIT_UNSPECIFIED" if s is None else SUIT_NAMES[s], "shanten": d - 1}
            for (p, s), d in sorted(paths.items(), key=lambda i: (i[1], i[0][0], -1 if i[0][1] is None else i[0][1]))
        ]
        held = self.holding.held()
        if len(self.holding.concealed) == 13 - 3 * self.holding.melds.count:
            waiting = self.waiting_answer(counts, held)
            return dict(out, **{k: v for k, v in waiting.items() if k != "shanten"}, options=[])
        out.update(useful=[], liveTotal=0, waits=[], liveValue=0.0, options=self.options(counts, held))
        return out

    def options(self, counts: list, held: list) -> list:
        options = []
        for x in sorted(set(self.holding.concealed)):
            counts[x] -= 1
            option = {"tile": TILE_NAMES[x], **self.waiting_answer(counts, held)}
            counts[x] += 1
            options.append(option)

        def rank(o):
            return (o["shanten"], -o["liveValue"] if o["shanten"] == 0 else 0.0, -o["liveTotal"])

        options.sort(key=lambda o: (rank(o), TILE_INDEX[o["tile"]]))
        for o in options:
            o["best"] = rank(o) == rank(options[0])
        return [
            {k: o[k] for k in ("tile", "shanten", "useful", "liveTotal", "waits", "liveValue", "best")} for o in options
        ]


class Refused(ValueError):
    """A request 15.4 refuses, with the fields it names."""

    def __init__(self, fields: list) -> None:
        super().__init__(", ".join(fields))
        self.fields = fields


def refused_fields(request: dict) -> list:
    """15.4 under section 14: a dragon cannot be seen as a tile where dragons are flowers, and is
    refused at `seen[i]`."""
    profile = request["profile"]
    if profile not in FAMILY_PROFILES or not effective(profile, request.get("overrides")).dragons_are_flowers:
        return []
    dragons = TILE_NAMES[31:]
    return [f"seen[{i}]" for i, tile in enumerate(request.get("seen", [])) if tile in dragons]


def advise(request: dict) -> dict:
    """The AdviseResponse of RULES.md 15 for an AdviseRequest (proto3 JSON, lowerCamelCase names,
    enum names), less `engineVersion` and `profileDigest`; `Refused` for a dragon seen where
    dragons are flowers."""
    fields = refused_fields(request)
    if fields:
        raise Refused(fields)
    return Advisor(request).answer()
