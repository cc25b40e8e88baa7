"""Seeded random requests under all six built-in profiles with profile overrides the section 14
generator leaves alone: `flower_values`, `qualifying_patterns`, the `fan`, `shape_fan` and
`fixed_values` tables, `no_flowers_value`, the 垃圾胡 花 minimums, `min_fan`, `max_fan`, caps and
the sankou threshold; and hands that split several ways (`111222333m`, `112233p`, `3334s`), where
the reading that counts matters (RULES.md section 4).

Left out, because RULES.md does not settle them (see the differential test's docstring):

- under `classic`, `sankou` and `lezi`: `last_tile`, and melds on an eight-flowers win (whether
  section 14's 海底捞月 and 14.4's meld 花 hold there once a section 14 field is overridden);
- a win on a tile the winner passed (漏胡): when every reading of a hand is illegal, RULES.md
  does not say which one it reports (the engine ranks those locked only by 漏胡 by the value they
  would have, `rules_core.legality._rank`; read literally, section 4 gives them all value 0, so
  番 decide);
- a qualifying list that leaves `ALL_HONOURS` out where an all-honour hand may be shapeless
  (whether such a hand may qualify by a situational pattern such as `CONCEALED`, or win as 垃圾胡
  under `ordinary_hand_wins`: it is "never incomplete", section 4, but not a complete shape, 14.3).

Every request is well formed (the engine must settle it)."""

from __future__ import annotations

from tests.rules_core.reference_families.generate import FamilyHands
from tests.rules_core.reference_families.profiles import ALL_PROFILES
from tests.rules_core.reference_families.tiles import DRAGONS, SUITS, TILE_NAME, WINDS

PROFILES = ("classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng")
SECTION_8 = ("classic", "sankou", "lezi")

# FlowerSource names.
SOURCES = (
    "FLOWER_TILE", "SUITED_PUNG", "WIND_PUNG", "DRAGON_PUNG", "SUITED_EXPOSED_KONG", "SUITED_CONCEALED_KONG",
    "WIND_EXPOSED_KONG", "WIND_CONCEALED_KONG", "DRAGON_EXPOSED_KONG", "DRAGON_CONCEALED_KONG",
)  # fmt: skip
SHAPE = ("ALL_PUNGS", "HALF_FLUSH", "FULL_FLUSH", "HALF_FLUSH_PUNGS", "FULL_FLUSH_PUNGS", "ALL_HONOURS",
         "ALL_HONOURS_PUNGS", "EIGHT_FLOWERS", "SEVEN_PAIRS")  # fmt: skip
SITUATIONAL = ("BIG_HANGING", "HEAVENLY", "EARTHLY", "KONG_BLOOM", "CONCEALED", "ROBBING_KONG", "NO_FLOWERS",
               "LAST_TILE")  # fmt: skip
PATTERNS = SHAPE + SITUATIONAL

# Suit blocks that split more than one way: all pungs or with chows (where 碰碰胡 and the pungs
# flushes hang on the reading), or with the pair or a pung in several places; shifted up at random.
_SPLIT_BLOCKS = ("111222333", "11122233344", "11222333444", "11333444555", "111222333444", "111222333555",
                 "111122223333", "11123444", "111123333", "11223344", "111123")  # fmt: skip


class OverrideHands(FamilyHands):
    """`FamilyHands` over all six profiles, with the overrides above and hands of several readings."""

    def _honours(self, profile: str) -> str:
        return WINDS if profile in ("qiaoma", "qiaoma_lezi") else WINDS + DRAGONS

    def _split_hand(self, profile: str) -> list[str] | None:
        """14 concealed tiles that split several ways: split blocks of one or two suits, filled up
        with pungs (honour pungs now and then) and a pair when the blocks hold none."""
        rng = self.rng
        tiles: list[str] = []
        suits = rng.sample(SUITS, 3) if rng.random() < 0.5 else [rng.choice(SUITS)] * 3
        pairs = 0
        for suit in suits[: rng.choice((1, 1, 2))]:
            block = rng.choice(_SPLIT_BLOCKS)
            if len(tiles) + len(block) > 14:
                break
            shift = rng.randint(0, 9 - int(max(block)))
            tiles += [f"{int(d) + shift}{suit}" for d in block]
            pairs += len(block) % 3 == 2
        honours = self._honours(profile)
        while len(tiles) < 14:
            need = 14 - len(tiles)
            if need % 3 == 2 and not pairs:
                size, pairs = 2, 1
            else:
                size = 3
            tile = rng.choice(honours) if rng.random() < 0.3 else f"{rng.randint(1, 9)}{suits[-1]}"
            tiles += [tile] * size
        if max(tiles.count(t) for t in tiles) > 4 or len(tiles) != 14:
            return None
        return sorted(tiles)

    def winner(self, profile: str, outcome: str, seat: int, eight: bool = False) -> dict:
        rng = self.rng
        while True:
            out = super().winner(profile, outcome, seat, eight)
            hand = out["hand"]
            if profile in SECTION_8 and outcome == "EIGHT_FLOWERS" and hand.get("melds"):
                continue  # see the module's docstring
            break
        if outcome != "EIGHT_FLOWERS" and rng.random() < 0.35:
            tiles = None
            while tiles is None:
                tiles = self._split_hand(profile)
            hand["concealed"] = [TILE_NAME[t] for t in tiles]
            hand["winningTile"] = TILE_NAME[rng.choice(tiles)]
            hand.pop("melds", None)
        passed = [t for t in out.pop("passedTiles", []) if t != hand.get("winningTile")]
        if passed:  # a lock on another tile only: see the module's docstring
            out["passedTiles"] = passed
        if profile in SECTION_8 or profile == "qinghunpeng":
            hand.pop("dragonFlowers", None)
        if profile in SECTION_8:
            out.pop("lastTile", None)
        return out

    def request(self) -> dict:
        req = super().request()
        if req["profile"] in SECTION_8 and req["outcome"] == "OUTCOME_EIGHT_FLOWERS":
            for w in req["winners"]:
                w["hand"].pop("melds", None)
        elif self.rng.random() < 0.1:
            self._without_flowers_but_pungs(req)
        return req

    def _without_flowers_but_pungs(self, req: dict) -> None:
        """Suited pungs worth 花, 无花 qualifying and winners without flower tiles: where a hand
        splits several ways, the reading with the fewest pungs may be the one of 0 花."""
        overrides = req.setdefault("overrides", {})
        values = [e for e in overrides.get("flowerValues", []) if e["source"] != "FLOWER_SOURCE_SUITED_PUNG"]
        values.append({"source": "FLOWER_SOURCE_SUITED_PUNG", "value": self.rng.choice((1, 2))})
        overrides["flowerValues"] = values
        qualifying = overrides.get("qualifyingPatterns") or [
            f"PATTERN_{p}" for p in sorted(ALL_PROFILES[req["profile"]].qualifying)
        ]
        if "PATTERN_NO_FLOWERS" not in qualifying:
            qualifying.append("PATTERN_NO_FLOWERS")
        overrides["qualifyingPatterns"] = qualifying
        for w in req["winners"]:
            w["hand"].pop("flowers", None)
            w["hand"].pop("dragonFlowers", None)

    def _overrides(self, profile: str) -> dict:
        rng = self.rng
        out = super()._overrides(profile) if profile not in SECTION_8 else {}
        if profile in SECTION_8 and rng.random() < 0.2:
            out["sevenPairs"] = True
        if rng.random() < 0.5:
            out["flowerValues"] = [
                {"source": f"FLOWER_SOURCE_{s}", "value": rng.choice((0, 1, 2, 3))}
                for s in rng.sample(SOURCES, rng.randint(1, 3))
            ]
        if rng.random() < 0.4:
            if rng.random() < 0.5:  # the profile's list and a few more (无花, 门清, 七对, ...)
                more = rng.sample(
                    ("NO_FLOWERS", "CONCEALED", "SEVEN_PAIRS", "KONG_BLOOM", "BIG_HANGING"), rng.choice((1, 2))
                )
                chosen = sorted(ALL_PROFILES[profile].qualifying | set(more))
            else:
                chosen = rng.sample(PATTERNS, rng.randint(1, 6))
            out["qualifyingPatterns"] = [f"PATTERN_{p}" for p in chosen]
        for table, values in (("fan", (0, 1, 2, 3)), ("shapeFan", (0, 1, 2, 4)), ("fixedValues", (0, 10, 20, 40))):
            if rng.random() < 0.2:
                out[table] = [
                    {"pattern": f"PATTERN_{p}", "value": rng.choice(values)}
                    for p in rng.sample(PATTERNS, rng.randint(1, 3))
                ]
        if rng.random() < 0.25:
            out["noFlowersValue"] = rng.choice((0, 3, 10))
        if rng.random() < 0.15:
            out["minFan"] = rng.choice((1, 2, 3))
        if rng.random() < 0.15:
            out["maxFan"] = rng.choice((0, 1, 2))
        if rng.random() < 0.2:
            out["ordinaryMinFlowersSelfDraw"] = rng.choice((0, 2, 4))
            out["ordinaryMinFlowersDiscard"] = rng.choice((0, 3, 5))
        if rng.random() < 0.15:
            out["ordinaryHandWins"] = rng.random() < 0.7
        if rng.random() < 0.1:
            out["noFlowersSelfDrawOnly"] = True
        if rng.random() < 0.1:
            out["capLaziExtra"] = rng.choice((0, 2))
        if rng.random() < 0.1:
            out["ordinaryLaziThreshold"] = rng.choice((0, 6, 8))
        if rng.random() < 0.1:
            out["fanOnFixed"] = rng.random() < 0.5
        if rng.random() < 0.08:
            out["laziValue"] = rng.choice((5, 10, 40))
        if rng.random() < 0.08:
            out["floorPatterns"] = [f"PATTERN_{p}" for p in rng.sample(PATTERNS, rng.randint(1, 3))]
        if profile in SECTION_8 and rng.random() < 0.25:
            switches = (
                "fanAdditive", "capFixedValues", "uncapped", "allHonoursNeedShape", "standardShapeOnly",
                "earthlySelfDrawOnly", "eightFlowersListsConcealed", "huangfanResetAfterWin", "multiWinDiscarderDeals",
            )  # fmt: skip
            for name in rng.sample(switches, rng.choice((1, 2))):
                out[name] = rng.random() < 0.7
            if rng.random() < 0.3:
                out["ordinaryBaseFan"] = rng.choice((1, 2))
        shapeless = not out.get("standardShapeOnly") and (
            out["allHonoursNeedShape"] is False if "allHonoursNeedShape" in out else profile in SECTION_8
        )
        qualifying = out.get("qualifyingPatterns")
        if shapeless and qualifying and "PATTERN_ALL_HONOURS" not in qualifying:
            qualifying.append("PATTERN_ALL_HONOURS")  # see the module's docstring
        return out

    def request_under(self, profile: str) -> dict:
        """A request under ``profile``."""
        self.profiles = (profile,)
        return self.request()


def override_requests(seed: int, count: int) -> list[dict]:
    """``count`` requests, the profiles in turn."""
    hands = OverrideHands(seed)
    return [hands.request_under(PROFILES[i % len(PROFILES)]) for i in range(count)]
