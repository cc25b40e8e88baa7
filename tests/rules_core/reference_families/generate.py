"""Seeded random requests under `qiaoma`, `qiaoma_lezi` and `qinghunpeng`, in the proto3 JSON
mapping, aimed at what section 14 changes: dragon flowers, 无花, 垃圾胡 and its 花 minimums,
兜底番 and 牌型番, 勒子 hands and the 8-勒 cap, 番 limits, seven pairs, 天胡 / 地胡 / 杠开 /
海底捞月 / 抢杠 / 大吊车, 漏胡, the knock, 包三口 and 承包 relations, several winners,
exhaustive draws, 荒番 and 开宝. Every request is well formed (the engine must settle it)."""

from __future__ import annotations

import random
from collections import Counter

from tests.rules_core.reference_families.tiles import (
    DRAGONS,
    FLOWER_NAME,
    MELD_KIND,
    SUITS,
    TILE_NAME,
    WINDS,
)

PROFILES = ("qiaoma", "qiaoma_lezi", "qinghunpeng")
_OUTCOMES = ("SELF_DRAW", "DISCARD", "ROBBING_KONG", "EIGHT_FLOWERS", "EXHAUSTIVE_DRAW")
_OUTCOME_WEIGHTS = (36, 38, 12, 7, 7)
_STYLES = ("mixed", "pungs", "full_flush", "half_flush", "honours", "seven_pairs", "incomplete", "near")
_STYLE_WEIGHTS = (30, 16, 12, 14, 6, 10, 5, 10)


class FamilyHands:
    profiles = PROFILES  # those `request` draws from

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    # ---- tiles ---------------------------------------------------------------------------
    def _honours(self, profile: str) -> str:
        return WINDS if profile != "qinghunpeng" else WINDS + DRAGONS

    def _suited(self, suit: str) -> str:
        return f"{self.rng.randint(1, 9)}{suit}"

    def _sets(self, style: str, honours: str) -> tuple[list[tuple[str, ...]], str] | None:
        """Four sets and a pair as tile tuples, or None when the draw broke the four-copies rule."""
        rng = self.rng
        one_suit = rng.choice(SUITS)
        flush_pungs = rng.random() < 0.4  # 清碰 / 混碰
        sets: list[tuple[str, ...]] = []
        for _ in range(4):
            if style == "honours":
                sets.append((rng.choice(honours),) * 3)
                continue
            suit = (
                one_suit
                if style in ("full_flush", "half_flush") or (style == "pungs" and flush_pungs)
                else rng.choice(SUITS)
            )
            honour = style in ("half_flush", "pungs", "mixed") and rng.random() < (0.35 if style != "mixed" else 0.15)
            if honour:
                sets.append((rng.choice(honours),) * 3)
            elif style != "pungs" and rng.random() < 0.6:
                n = rng.randint(1, 7)
                sets.append(tuple(f"{n + i}{suit}" for i in range(3)))
            else:
                sets.append((self._suited(suit),) * 3)
        if style == "honours" or (style == "half_flush" and rng.random() < 0.5):
            pair = rng.choice(honours)
        else:
            pair = self._suited(one_suit if style in ("full_flush", "half_flush") else rng.choice(SUITS))
        counts = Counter(t for s in sets for t in s) + Counter({pair: 2})
        return None if max(counts.values()) > 4 else (sets, pair)

    def _seven_pairs(self, honours: str, all_honours: bool) -> list[str]:
        rng = self.rng
        pool = (
            list(honours)
            if all_honours or rng.random() < 0.35
            else [f"{n}{s}" for n in range(1, 10) for s in ([rng.choice(SUITS)] if rng.random() < 0.4 else SUITS)]
        )
        pairs: list[str] = []
        if not all_honours and rng.random() < 0.3:  # doubled chows: also four sets and a pair
            for _ in range(2):
                n, s = rng.randint(1, 7), rng.choice(SUITS)
                pairs += [f"{n + i}{s}" for i in range(3)]
            if max(Counter(pairs).values()) > 2:
                pairs = []
        while len(pairs) < 7:
            tile = rng.choice(pool)
            if pairs.count(tile) < 2 and (rng.random() < 0.25 or tile not in pairs):
                pairs.append(tile)
        return sorted(t for p in pairs for t in (p, p))

    # ---- a winner ------------------------------------------------------------------------
    def _melds(self, seat: int, sets: list[tuple[str, ...]], counts: Counter, wanted: int) -> tuple[list[dict], list]:
        rng = self.rng
        melds, concealed_sets = [], []
        for s in sets:
            if len(melds) >= wanted:
                concealed_sets.append(s)
                continue
            if s[0] != s[1]:  # a chow, claimed from the 上家
                melds.append(
                    {"kind": MELD_KIND["chow"], "tiles": [TILE_NAME[t] for t in s], "fromSeat": (seat + 3) % 4}
                )
                continue
            kind = rng.choice(("pung", "pung", "exposed_kong", "added_kong", "concealed_kong"))
            if kind != "pung" and counts[s[0]] >= 4:
                kind = "pung"
            tiles = list(s) + ([s[0]] if kind != "pung" else [])
            if kind != "pung":
                counts[s[0]] += 1
            meld = {"kind": MELD_KIND[kind], "tiles": [TILE_NAME[t] for t in tiles]}
            if kind != "concealed_kong":
                meld["fromSeat"] = rng.choice([x for x in range(4) if x != seat])
            melds.append(meld)
        return melds, concealed_sets

    def _tiles_of(self, style: str, profile: str, seat: int) -> tuple[list[str], list[dict]]:
        rng = self.rng
        honours = self._honours(profile)
        tiles_pool = [f"{n}{s}" for s in SUITS for n in range(1, 10)] + list(honours)
        if style == "seven_pairs" or (style == "honours" and len(honours) < 5):
            # four winds cannot make four sets and a pair: all winds means seven pairs (EEEE SSSS WWWW NN)
            return self._seven_pairs(honours, style == "honours"), []
        wanted = rng.choices((0, 1, 2, 3, 4), (45, 18, 14, 10, 13))[0]
        if style == "incomplete":
            pool = list(honours) if rng.random() < 0.5 else tiles_pool  # loose honours: 乱风向 in any shape
            while True:
                tiles = [rng.choice(pool) for _ in range(14)]
                if max(Counter(tiles).values()) <= 4:
                    return sorted(tiles), []  # melds left out: a shapeless hand of loose tiles
        drawn = None
        while drawn is None:
            drawn = self._sets(style, honours)
            style = style if drawn is not None or rng.random() < 0.9 else "mixed"
        sets, pair = drawn
        counts = Counter(t for s in sets for t in s) + Counter({pair: 2})
        melds, concealed_sets = self._melds(seat, sets, counts, wanted)
        concealed = sorted([t for s in concealed_sets for t in s] + [pair, pair])
        if style == "near":  # one tile changed: often incomplete, sometimes another reading
            i = rng.randrange(len(concealed))
            for _ in range(20):
                other = rng.choice(tiles_pool)
                if counts[other] < 4 and other != concealed[i]:
                    concealed[i] = other
                    break
            concealed.sort()
        return concealed, melds

    def winner(self, profile: str, outcome: str, seat: int, eight: bool = False) -> dict:
        rng = self.rng
        style = rng.choices(_STYLES, _STYLE_WEIGHTS)[0]
        concealed, melds = self._tiles_of(style, profile, seat)
        hand: dict = {}
        if outcome == "EIGHT_FLOWERS":
            if rng.random() < 0.5:
                concealed.pop(rng.randrange(len(concealed)))
        else:
            hand["winningTile"] = TILE_NAME[rng.choice(concealed)]
        hand["concealed"] = [TILE_NAME[t] for t in concealed]
        if melds:
            hand["melds"] = melds
        if eight:
            seasons = 8 if rng.random() < 0.85 else rng.randint(0, 7)
        else:
            seasons = rng.choices((0, 1, 2, 3, 4, 6, 8), (40, 16, 14, 10, 8, 6, 6))[0]
        if seasons:
            hand["flowers"] = [FLOWER_NAME[f] for f in sorted(rng.sample("12345678", seasons))]
        if profile != "qinghunpeng" and rng.random() < 0.5:
            dragons: Counter = Counter(rng.choice(DRAGONS) for _ in range(rng.randint(1, 6)))
            hand["dragonFlowers"] = [TILE_NAME[d] for d in sorted(dragons.elements()) if dragons[d] <= 4]
        out: dict = {"seat": seat, "hand": hand}
        if outcome == "SELF_DRAW" and rng.random() < 0.15:
            out["replacementDraw"] = True
        if outcome == "SELF_DRAW" and rng.random() < 0.1:
            out["lastTile"] = True
        if rng.random() < (0.3 if not melds else 0.05):
            out["firstGoAround"] = True
        if outcome in ("DISCARD", "ROBBING_KONG", "SELF_DRAW") and rng.random() < 0.15:
            passed = [hand["winningTile"]] if rng.random() < 0.6 else [TILE_NAME[rng.choice(concealed)]]
            out["passedTiles"] = passed
        return out

    # ---- a request -----------------------------------------------------------------------
    def request(self) -> dict:
        rng = self.rng
        profile = rng.choice(self.profiles)
        outcome = rng.choices(_OUTCOMES, _OUTCOME_WEIGHTS)[0]
        req: dict = {"profile": profile, "outcome": f"OUTCOME_{outcome}", "dealerSeat": rng.randrange(4)}
        discarder = rng.randrange(4)
        if outcome in ("SELF_DRAW", "EIGHT_FLOWERS"):
            seats = [rng.randrange(4)]
        elif outcome == "EXHAUSTIVE_DRAW":
            seats = []
        else:
            req["discarderSeat"] = discarder
            others = [s for s in range(4) if s != discarder]
            seats = sorted(rng.sample(others, rng.choices((1, 2, 3), (80, 15, 5))[0]))
        req["winners"] = [self.winner(profile, outcome, s, eight=outcome == "EIGHT_FLOWERS") for s in seats]
        if rng.random() < 0.4:
            req["dice"] = {"first": rng.randint(1, 6), "second": rng.randint(1, 6)}
        if rng.random() < 0.4:
            req["huangfanCount"] = rng.randint(1, 4)
        pairs = {(a, b) for a in range(4) for b in range(4) if a != b}
        relations = []
        for claimer, source in rng.sample(sorted(pairs), rng.choices((0, 1, 2, 3), (30, 35, 25, 10))[0]):
            relation = {"claimerSeat": claimer, "sourceSeat": source, "claims": rng.choice((1, 2, 3, 3, 3, 4, 4, 5))}
            if rng.random() < 0.5:
                relation["patternKept"] = True
            relations.append(relation)
        if relations:
            req["liabilities"] = relations
        declared = [s for s in range(4) if rng.random() < (0.85 if s in seats else 0.5)]
        rng.shuffle(declared)
        if declared:
            req["declaredSeats"] = declared
        overrides = self._overrides(profile)
        if overrides:
            req["overrides"] = overrides
        return req

    def _overrides(self, profile: str) -> dict:
        """Mostly none: the built-in profiles are what is played. Now and then a room's variant:
        七小对 on (also under `qiaoma`, where it must change nothing), 一番和 and other 番 limits,
        another 底, 兜底番, 无花 value, 花 minimums, cap or 荒番 limit."""
        rng = self.rng
        out: dict = {}
        if rng.random() < 0.3:
            out["sevenPairs"] = True
        if profile != "qiaoma" and rng.random() < 0.08:  # 乱风向 in any shape, as in section 4
            out["allHonoursNeedShape"] = False
        if rng.random() < (0.15 if profile == "qiaoma" else 0.05):
            out["minFan"] = rng.choice((1, 2, 4))
        if rng.random() < 0.3:
            choices = {
                "ordinaryBase": (1, 2, 3),
                "ordinaryBaseFan": (0, 2),
                "maxFan": (0, 2, 4),
                "noFlowersValue": (0, 5),
                "ordinaryMinFlowersSelfDraw": (0, 4),
                "ordinaryMinFlowersDiscard": (0, 1, 5),
                "huangfanMaxCount": (0, 1, 5),
                "capLaziExtra": (0, 3, 20),
            }
            switches = (
                "fanAdditive", "fanOnFixed", "capFixedValues", "uncapped", "ordinaryHandWins", "standardShapeOnly",
                "noFlowersSelfDrawOnly", "earthlySelfDrawOnly", "eightFlowersListsConcealed", "winRequiresDeclaration",
                "multiWinDiscarderDeals", "huangfanResetAfterWin", "allHonoursNeedShape",
            )  # fmt: skip
            choices |= {name: (False, True) for name in switches}
            for name in rng.sample(sorted(choices), rng.choice((1, 1, 2))):
                out[name] = rng.choice(choices[name])
        return out

    def requests(self, count: int) -> list[dict]:
        return [self.request() for _ in range(count)]
