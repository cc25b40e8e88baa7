"""RULES.md 15.2-15.3 under the profiles of section 14 (`qiaoma`, `qiaoma_lezi`, `qinghunpeng`),
written from sections 14 and 15 alone.

A target is legal as a plain self-draw by a seat that has knocked. Under these profiles that
depends on more than the patterns a reading carries: on the target's 花 (its flower tiles, dragon
flowers, melds and its own concealed wind and dragon pungs, 14.4) through `NO_FLOWERS`, 无花's
`no_flowers_value` and the 垃圾胡 minimum of 14.10.3, and on its 番 through `min_fan`. So the
groups' parts are read as in distance.py, the honours also counting their pungs of winds and of
dragons, and every complete reading's features (suits and honours used, a chow, those pungs) are
judged one by one. Seven pairs (14.3) are searched apart, pair by pair, for each path they may
count for. The profile is the section 14 reference's (tests/rules_core/reference_families), with
its overrides applied; nothing here reads the engine."""

from __future__ import annotations

from functools import cache
from itertools import product

from tests.rules_core.reference_families.profiles import FLOWER_VALUES, PATTERN_NUMBER, PROFILES, Profile

from .distance import GROUP_TILES, HONOURS, ORDINARY, SUITS, group_parts, is_four_sets_and_a_pair

FAMILY_PROFILES = frozenset(PROFILES)
WINDS = range(27, 31)
DRAGONS = range(31, 34)
FLUSHES = {"HALF_FLUSH", "FULL_FLUSH", "HALF_FLUSH_PUNGS", "FULL_FLUSH_PUNGS"}
STANDARD, SEVEN_PAIRS_FORM, SHAPELESS = "standard", "seven pairs", "shapeless"


def _kind(tile: int) -> str:
    return "WIND" if tile in WINDS else "DRAGON" if tile in DRAGONS else "SUITED"


class FamilyMelds:
    """What legality needs of a holding's melds and flowers: their 花, groups, chow, count."""

    def __init__(self, melds: list, flower_tiles: int) -> None:  # [(kind, [tile indices])]
        self.count = len(melds)
        self.copies = [0] * 34
        self.suits: set = set()
        self.honours = False
        self.chow = False
        self.all_concealed_kongs = True
        self.hua = flower_tiles
        for kind, tiles in melds:
            for t in tiles:
                self.copies[t] += 1
            if tiles[0] < 27:
                self.suits.add(tiles[0] // 9)
            else:
                self.honours = True
            self.chow = self.chow or kind == "MELD_KIND_CHOW"
            self.all_concealed_kongs = self.all_concealed_kongs and kind == "MELD_KIND_CONCEALED_KONG"
            if kind == "MELD_KIND_PUNG":
                self.hua += FLOWER_VALUES[f"{_kind(tiles[0])}_PUNG"]
            elif kind == "MELD_KIND_CONCEALED_KONG":
                self.hua += FLOWER_VALUES[f"{_kind(tiles[0])}_CONCEALED_KONG"]
            elif kind != "MELD_KIND_CHOW":  # exposed and added kongs
                self.hua += FLOWER_VALUES[f"{_kind(tiles[0])}_EXPOSED_KONG"]


def pung_hua(profile: Profile, winds: int, dragons: int) -> int:
    """The 花 of a target's concealed wind and dragon pungs, as far as legality can tell it apart:
    whether the whole is 0 (无花) and whether it reaches the 垃圾胡 minimum."""
    hua = winds * FLOWER_VALUES["WIND_PUNG"] + dragons * FLOWER_VALUES["DRAGON_PUNG"]
    return min(hua, max(1, profile.min_flowers_self_draw))


def reading_paths(profile: Profile, melds: FamilyMelds, form: str, suits: set, honours: bool, chow: bool, pungs: int):
    """The path keys (pattern number, suit or None) one complete reading of a target counts for,
    or () when it is not a legal plain self-draw. ``suits``, ``honours`` and ``chow``: what its
    concealed tiles use; ``pungs``: the 花 of its concealed pungs (`pung_hua`)."""
    suits = suits | melds.suits
    honours = honours or melds.honours
    found = set()
    if form == STANDARD:
        all_pungs = not chow and not melds.chow
        if all_pungs:
            found.add("ALL_PUNGS")
        if len(suits) == 1:
            found.add("HALF_FLUSH" if honours else "FULL_FLUSH")
            if all_pungs:
                found.add("HALF_FLUSH_PUNGS" if honours else "FULL_FLUSH_PUNGS")
        if not suits:
            found.add("ALL_HONOURS")
            if all_pungs:
                found.add("ALL_HONOURS_PUNGS")
        if melds.count == 4:
            found.add("BIG_HANGING")
    elif not suits:
        found.add("ALL_HONOURS")
    elif form == SEVEN_PAIRS_FORM and profile.seven_pairs:
        found.add("SEVEN_PAIRS")
    if melds.all_concealed_kongs:
        found.add("CONCEALED")
    hua = melds.hua + pungs
    if hua == 0 and profile.evaluates_no_flowers:
        found.add("NO_FLOWERS")
        hua = profile.no_flowers_value
    qualifying = found & profile.qualifying
    if not qualifying and not (profile.ordinary_hand_wins and hua >= profile.min_flowers_self_draw):
        return ()
    if profile.min_fan:
        shape = max((profile.shape_fan.get(p, 0) for p in found), default=0)
        if profile.base_fan + shape + sum(profile.fan.get(p, 0) for p in found) < profile.min_fan:
            return ()
    if not qualifying:
        return ((ORDINARY, None),)
    (suit,) = suits if len(suits) == 1 else (None,)
    return tuple((PATTERN_NUMBER[p], suit if p in FLUSHES else None) for p in qualifying)


@cache
def honour_parts(counts: tuple, caps: tuple, limit: int) -> dict:
    """{(sets, pairs, wind pungs, dragon pungs): most tiles kept} over the ways to fill the honours
    with up to ``limit`` pungs and at most one pair (honours make no chows)."""
    states = {(0, 0, 0, 0): 0}
    for i in range(7):
        nxt: dict = {}
        for (sets, pairs, winds, dragons), kept in states.items():
            for take in (0, 2, 3):
                if take > caps[i] or (take == 2 and pairs) or (take == 3 and sets == limit):
                    continue
                pung = take == 3
                key = (sets + pung, pairs + (take == 2), winds + (pung and i < 4), dragons + (pung and i >= 4))
                value = kept + min(counts[i], take)
                if nxt.get(key, -1) < value:
                    nxt[key] = value
        states = nxt
    return states


def _standard(counts: list, caps: list, profile: Profile, melds: FamilyMelds, kept: dict) -> None:
    needed = 4 - melds.count
    states = {(0, 0, 0, False, 0): 0}  # sets, pairs, groups used (bits), chow, 花 of the concealed pungs
    for g, tiles in enumerate(GROUP_TILES):
        c = tuple(counts[t] for t in tiles)
        cap = tuple(caps[t] for t in tiles)
        if g == HONOURS:
            part = {}
            for (s, p, w, d), v in honour_parts(c, cap, needed).items():
                key = (s, p, False, pung_hua(profile, w, d))
                part[key] = max(part.get(key, -1), v)
        else:
            part = {(s, p, bool(ch), 0): v for (s, p, ch), v in group_parts(c, cap, True, needed).items()}
        last = g == HONOURS  # then only complete readings: ``needed`` sets and one pair
        items = list(part.items())
        nxt: dict = {}
        for (sets, pairs, used, chow, hua), value in states.items():
            for (s, p, ch, h), v in items:
                if (s != needed - sets or p + pairs != 1) if last else (s > needed - sets or p + pairs > 1):
                    continue
                key = (sets + s, pairs + p, used | (1 << g) if s or p else used, chow or ch, hua + h)
                if nxt.get(key, -1) < value + v:
                    nxt[key] = value + v
        states = nxt
    for (_, _, used, chow, hua), value in states.items():
        suits = {g for g in SUITS if used >> g & 1}
        for key in reading_paths(profile, melds, STANDARD, suits, bool(used >> HONOURS & 1), chow, hua):
            kept[key] = max(kept.get(key, -1), value)


def _pairs_features(profile: Profile, chosen: list) -> tuple:
    """Suits, honours and the 花 of seven pairs: four of an honour is one concealed pung (14.4)."""
    suits = {t // 9 for t in range(27) if chosen[t]}
    hua = pung_hua(profile, sum(chosen[t] == 4 for t in WINDS), sum(chosen[t] == 4 for t in DRAGONS))
    return suits, any(chosen[t] for t in range(27, 34)), hua


def seven_pairs_best(counts: list, tiles: list, accept) -> int | None:
    """Most of ``counts`` kept by seven pairs over ``tiles`` (four of a kind two pairs) that are
    not also four sets and a pair (14.3: then read only as that) and that ``accept`` takes, by
    branch and bound over the pairs of each tile."""
    gains = {t: (min(counts[t], 2), max(0, min(counts[t], 4) - 2)) for t in tiles}
    order = sorted(tiles, key=lambda t: -sum(gains[t]))
    best = [-1]
    chosen = [0] * 34

    def bound(pos: int, slots: int) -> int:
        return sum(sorted((g for t in order[pos:] for g in gains[t]), reverse=True)[:slots])

    def search(pos: int, slots: int, kept: int) -> None:
        if slots == 0:
            if kept > best[0] and accept(chosen) and not is_four_sets_and_a_pair(chosen[:]):
                best[0] = kept
            return
        if pos == len(order) or kept + bound(pos, slots) <= best[0]:
            return
        t = order[pos]
        for n in (2, 1, 0):
            if n <= slots:
                chosen[t] = 2 * n
                search(pos + 1, slots - n, kept + sum(gains[t][:n]))
                chosen[t] = 0

    search(0, 7, 0)
    return None if best[0] < 0 else best[0]


def _seven_pairs(counts: list, profile: Profile, melds: FamilyMelds, kept: dict) -> None:
    if profile.standard_shape_only or melds.count:
        return
    tiles = [t for t in range(34) if not (profile.dragons_are_flowers and t in DRAGONS)]
    honours = [t for t in tiles if t >= 27]
    # Only the paths a seven-pairs reading can count for are searched: a search that accepts
    # nothing visits every choice of pairs.
    patterns = {"ALL_HONOURS", "CONCEALED"} | ({"SEVEN_PAIRS"} if profile.seven_pairs else set())
    keys = {(PATTERN_NUMBER[p], None) for p in patterns & profile.qualifying}
    always_qualifies = "CONCEALED" in profile.qualifying or {"SEVEN_PAIRS", "ALL_HONOURS"} <= profile.qualifying
    if profile.ordinary_hand_wins and not always_qualifies:
        keys.add((ORDINARY, None))
    for key in sorted(keys):

        def accept(chosen: list, key=key) -> bool:
            suits, uses_honours, hua = _pairs_features(profile, chosen)
            if suits and not profile.seven_pairs:  # 14.3: only the all-honour form is complete then
                return False
            return key in reading_paths(profile, melds, SEVEN_PAIRS_FORM, suits, uses_honours, False, hua)

        value = seven_pairs_best(counts, honours if key[0] == PATTERN_NUMBER["ALL_HONOURS"] else tiles, accept)
        if value is not None:
            kept[key] = max(kept.get(key, -1), value)


def _shapeless(counts: list, caps: list, profile: Profile, melds: FamilyMelds, kept: dict) -> None:
    """`all_honours_any_shape` (an override under these profiles): any 14 - 3m honours."""
    if profile.standard_shape_only or not profile.all_honours_any_shape or melds.suits:
        return
    if profile.ordinary_hand_wins and "ALL_HONOURS" not in profile.qualifying:
        raise NotImplementedError("the reference advice does not model shapeless all honours with these overrides")
    honours = [t for t in range(27, 34) if not (profile.dragons_are_flowers and t in DRAGONS)]
    if profile.min_fan:
        _shapeless_by_flowers(counts, caps, profile, melds, kept, honours)
        return
    room = min(sum(min(counts[t], caps[t]) for t in honours), 14 - 3 * melds.count)
    for key in reading_paths(profile, melds, SHAPELESS, set(), True, False, 0):
        kept[key] = max(kept.get(key, -1), room)


def _shapeless_by_flowers(
    counts: list, caps: list, profile: Profile, melds: FamilyMelds, kept: dict, honours: list
) -> None:
    """With a 番 minimum, 无花果 may decide: every honour target of the size that is read as
    shapeless (not four sets and a pair; not seven pairs where they are read), judged with the
    花 of the honours it holds three or more times."""
    size = 14 - 3 * melds.count
    for target in product(*(range(min(caps[t], 4) + 1) for t in honours)):
        if sum(target) != size:
            continue
        chosen = [0] * 34
        for t, n in zip(honours, target, strict=True):
            chosen[t] = n
        if is_four_sets_and_a_pair(chosen[:]):
            continue
        if profile.seven_pairs and not melds.count and all(n % 2 == 0 for n in target):
            continue
        winds = sum(1 for t in honours if chosen[t] >= 3 and t not in DRAGONS)
        dragons = sum(1 for t in honours if chosen[t] >= 3 and t in DRAGONS)
        value = sum(min(counts[t], chosen[t]) for t in honours)
        for key in reading_paths(profile, melds, SHAPELESS, set(), True, False, pung_hua(profile, winds, dragons)):
            kept[key] = max(kept.get(key, -1), value)


def family_path_distances(counts: list, melds: FamilyMelds, profile: Profile) -> dict:
    """{(pattern number, suit or None): distance} of a holding under a section 14 profile."""
    caps = [4 - c for c in melds.copies]
    if profile.dragons_are_flowers:
        for t in DRAGONS:
            caps[t] = 0
    kept: dict = {}
    _standard(counts, caps, profile, melds, kept)
    _seven_pairs(counts, profile, melds, kept)
    _shapeless(counts, caps, profile, melds, kept)
    size = 14 - 3 * melds.count
    return {key: size - value for key, value in kept.items()}
