"""Distances of RULES.md 15.2-15.3, written from the rules alone.

A target's concealed tiles are read group by group (万, 筒, 条, honours). For each group a plain
dynamic programme over its tiles gives the most holding tiles a group part of a target can keep,
for each number of sets, pairs and whether a chow is among them, never more than four copies of a
tile counting the melds. Combining the groups' parts gives every complete reading; the patterns a
reading carries (section 4 and 14.3) decide which paths it counts for. The distance of a path is
the size of a target's concealed tiles less the most tiles a target of that path keeps."""

from __future__ import annotations

from functools import cache

SUITS = (0, 1, 2)
HONOURS = 3
GROUP_TILES = (range(0, 9), range(9, 18), range(18, 27), range(27, 34))

ALL_PUNGS, HALF_FLUSH, FULL_FLUSH, HALF_FLUSH_PUNGS, FULL_FLUSH_PUNGS = 1, 2, 3, 4, 5
ALL_HONOURS, ALL_HONOURS_PUNGS, BIG_HANGING, CONCEALED, SEVEN_PAIRS = 6, 7, 9, 13, 15
ORDINARY = 99  # sorts last; on the wire PATTERN_UNSPECIFIED
FLUSHES = (HALF_FLUSH, FULL_FLUSH, HALF_FLUSH_PUNGS, FULL_FLUSH_PUNGS)


@cache
def group_parts(counts: tuple, caps: tuple, chows: bool, limit: int) -> dict:
    """{(sets, pairs, has_chow): most tiles kept} over the ways to fill this group with up to four
    sets and at most one pair. ``caps`` is how many copies of each tile a target may still hold."""
    states = {(0, 0, 0, 0, 0): 0}  # sets, pairs, chow used, chows begun one back, two back
    size = len(counts)
    for i in range(size):
        nxt: dict = {}
        for (sets, pairs, used, back1, back2), kept in states.items():
            for pung in (0, 1) if sets < limit else (0,):
                for pair in (0, 1) if pairs == 0 else (0,):
                    top = limit - sets - pung if chows and i <= size - 3 else 0
                    for begun in range(0, top + 1):
                        tiles = 3 * pung + 2 * pair + begun + back1 + back2
                        if tiles > caps[i]:
                            break
                        key = (sets + pung + begun, pairs + pair, used or begun > 0, begun, back1)
                        value = kept + min(counts[i], tiles)
                        if nxt.get(key, -1) < value:
                            nxt[key] = value
        states = nxt
    best: dict = {}
    for (sets, pairs, used, back1, back2), kept in states.items():
        if back1 == 0 and back2 == 0:
            key = (sets, pairs, int(used))
            best[key] = max(best.get(key, -1), kept)
    return best


def is_four_sets_and_a_pair(counts: list) -> bool:
    def sets_only(c: list, i: int) -> bool:
        while i < 34 and c[i] == 0:
            i += 1
        if i == 34:
            return True
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c, i)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            ok = sets_only(c, i)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
            return ok
        return False

    for t in range(34):
        if counts[t] >= 2:
            counts[t] -= 2
            ok = sets_only(counts, 0)
            counts[t] += 2
            if ok:
                return True
    return False


def seven_pairs_kept(counts: list) -> int | None:
    """Most tiles kept by a seven-pairs hand (four of a kind two pairs) that is not four sets and a
    pair and not all honours (14.3), by branch and bound over the pairs of each tile."""
    gains = []
    for t in range(34):
        gains.append((t, min(counts[t], 2), max(0, min(counts[t], 4) - 2)))
    order = sorted(range(34), key=lambda t: -(gains[t][1] + gains[t][2]))
    best = [-1]
    chosen = [0] * 34

    def bound(pos: int, slots: int) -> int:
        rest = sorted((g for t in order[pos:] for g in gains[t][1:]), reverse=True)
        return sum(rest[:slots])

    def search(pos: int, slots: int, kept: int) -> None:
        if slots == 0:
            if kept > best[0] and any(chosen[t] for t in range(27)) and not is_four_sets_and_a_pair(chosen[:]):
                best[0] = kept
            return
        if pos == 34 or kept + bound(pos, slots) <= best[0]:
            return
        t = order[pos]
        for n in (2, 1, 0):
            if n > slots:
                continue
            chosen[t] = 2 * n
            search(pos + 1, slots - n, kept + sum(gains[t][1 : 1 + n]))
            chosen[t] = 0

    search(0, 7, 0)
    return None if best[0] < 0 else best[0]


class Melds:
    """What the distance needs of a holding's melds: copies per tile, groups, chows, kinds."""

    def __init__(self, melds: list) -> None:  # [(kind, [tile indices])]
        self.count = len(melds)
        self.copies = [0] * 34
        self.groups = set()
        self.chow = False
        self.all_concealed_kongs = True
        for kind, tiles in melds:
            for t in tiles:
                self.copies[t] += 1
            self.groups.add(min(tiles[0] // 9, HONOURS))
            self.chow = self.chow or kind == "MELD_KIND_CHOW"
            self.all_concealed_kongs = self.all_concealed_kongs and kind == "MELD_KIND_CONCEALED_KONG"


def _fold(parts: list, needed: int) -> dict:
    """{flags: most kept} over one part of each group, exactly ``needed`` sets and one pair.
    ``parts`` is [(part, flag)]: a part is {(sets, pairs): kept}; using a group sets its flag."""
    states = {(0, 0, 0): 0}
    for part, flag in parts:
        nxt: dict = {}
        for (sets, pairs, flags), value in states.items():
            for (s, p), v in part.items():
                if sets + s > needed or pairs + p > 1:
                    continue
                key = (sets + s, pairs + p, flags | flag if s or p else flags)
                if nxt.get(key, -1) < value + v:
                    nxt[key] = value + v
        states = nxt
    return {flags: v for (sets, pairs, flags), v in states.items() if sets == needed and pairs == 1}


@cache
def _views(counts: tuple, caps: tuple, chows: bool, limit: int) -> tuple:
    """A group's parts three ways: by (sets, pairs, chow), by (sets, pairs), chow-free only."""
    part = group_parts(counts, caps, chows, limit)
    return part, _any(part), _pungs(part)


def _any(part: dict) -> dict:
    out: dict = {}
    for (s, p, _), v in part.items():
        out[(s, p)] = max(out.get((s, p), -1), v)
    return out


def _pungs(part: dict) -> dict:
    return {(s, p): v for (s, p, c), v in part.items() if not c}


def path_kept(counts: list, melds: Melds, qualifying: set, ordinary_wins: bool, seven_pairs: bool) -> dict:
    """{(pattern, suit or None): most concealed tiles a target of that path keeps}."""
    needed = 4 - melds.count
    caps = [4 - c for c in melds.copies]
    parts = []
    for g, tiles in enumerate(GROUP_TILES):
        c = tuple(counts[t] for t in tiles)
        cap = tuple(caps[t] for t in tiles)
        parts.append(_views(c, cap, g != HONOURS, needed))
    kept: dict = {}

    def offer(key, found: dict) -> None:
        if key[0] in qualifying and found and kept.get(key, -1) < max(found.values()):
            kept[key] = max(found.values())

    everything = [(p[1], 0) for p in parts]
    if not melds.chow:
        offer((ALL_PUNGS, None), _fold([(p[2], 0) for p in parts], needed))
    for suit in SUITS:
        if not melds.groups <= {suit, HONOURS}:
            continue
        suit_flag = 1 if suit in melds.groups else 0
        honour_flag = 2 if HONOURS in melds.groups else 0
        for pungs, half, full in ((False, HALF_FLUSH, FULL_FLUSH), (True, HALF_FLUSH_PUNGS, FULL_FLUSH_PUNGS)):
            if pungs and melds.chow:
                continue
            view = 2 if pungs else 1
            found = _fold([(parts[suit][view], 1), (parts[HONOURS][view], 2)], needed)
            with_melds: dict = {}
            for f, v in found.items():
                f |= suit_flag | honour_flag
                with_melds[f] = max(with_melds.get(f, -1), v)
            offer((half, suit), {f: v for f, v in with_melds.items() if f == 3})
            offer((full, suit), {f: v for f, v in with_melds.items() if f == 1})
    if not melds.chow and not melds.groups & set(SUITS):
        offer((ALL_HONOURS_PUNGS, None), _fold([(parts[HONOURS][2], 0)], needed))
    if melds.count == 4:
        offer((BIG_HANGING, None), _fold(everything, needed))
    if melds.all_concealed_kongs:
        offer((CONCEALED, None), _fold(everything, needed))
    if not melds.groups & set(SUITS) and ALL_HONOURS in qualifying:
        room = sum(min(counts[t], caps[t]) for t in GROUP_TILES[HONOURS])
        offer((ALL_HONOURS, None), {0: min(room, 14 - 3 * melds.count)})
    if ordinary_wins:
        value = _ordinary_kept([p[0] for p in parts], melds, qualifying, needed)
        if value is not None:
            kept[(ORDINARY, None)] = value
    if seven_pairs and melds.count == 0 and (SEVEN_PAIRS in qualifying or ordinary_wins):
        value = seven_pairs_kept(counts)
        if value is not None:
            key = (SEVEN_PAIRS if SEVEN_PAIRS in qualifying else ORDINARY, None)
            kept[key] = max(kept.get(key, -1), value)
    return kept


def _ordinary_kept(parts: list, melds: Melds, qualifying: set, needed: int) -> int | None:
    """Most kept by a complete reading that carries no qualifying pattern (垃圾胡)."""
    best = None
    # Fold with the groups used (bits 0-3) and whether a chow is among the concealed sets (bit 4).
    states = {(0, 0, sum(1 << g for g in melds.groups) | (16 if melds.chow else 0)): 0}
    for g, part in enumerate(parts):
        nxt: dict = {}
        for (sets, pairs, flags), value in states.items():
            for (s, p, c), v in part.items():
                if sets + s > needed or pairs + p > 1:
                    continue
                key = (sets + s, pairs + p, flags | (1 << g if s or p else 0) | (16 if c else 0))
                if nxt.get(key, -1) < value + v:
                    nxt[key] = value + v
        states = nxt
    for (sets, pairs, flags), value in states.items():
        if sets != needed or pairs != 1:
            continue
        suits = [g for g in SUITS if flags >> g & 1]
        honours = bool(flags >> HONOURS & 1)
        pungs = not flags & 16
        carried = set()
        if pungs:
            carried.add(ALL_PUNGS)
        if len(suits) == 1:
            carried.add(HALF_FLUSH if honours else FULL_FLUSH)
            if pungs:
                carried.add(HALF_FLUSH_PUNGS if honours else FULL_FLUSH_PUNGS)
        if not suits:
            carried.add(ALL_HONOURS)
            if pungs:
                carried.add(ALL_HONOURS_PUNGS)
        if melds.count == 4:
            carried.add(BIG_HANGING)
        if melds.all_concealed_kongs:
            carried.add(CONCEALED)
        if not carried & qualifying and (best is None or value > best):
            best = value
    return best


def path_distances(counts: list, melds: Melds, qualifying: set, ordinary_wins: bool, seven_pairs: bool) -> dict:
    size = 14 - 3 * melds.count
    return {p: size - v for p, v in path_kept(counts, melds, qualifying, ordinary_wins, seven_pairs).items()}
