"""Properties under random overrides (issue 14): the reading that counts is the most valuable
one, found against a brute force over every split; order of table entries does not matter;
seat deltas sum to zero."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from generators.random_hands import HandGenerator
from rules_core import BUILTIN_PROFILES, CombineFixed, InvalidRequest, LiabilityMode, Outcome, legality, settle
from rules_core import Pattern as P
from rules_core.flowers import flower_sources, flower_total
from rules_core.legality import pungs_reading_always_best
from rules_core.overrides import resolve_profile
from rules_core.profile import FlowerSource
from rules_core.requests import Hand, Meld, MeldKind, SettleRequest, Winner, replace
from rules_core.tiles import ALL_FLOWERS, FIRST_HONOUR, Tile
from rules_core.valuation import hand_value

from .test_shape import brute_force, counts_of

# --- random overrides ------------------------------------------------------------------------

VALUED = [P.ALL_PUNGS, P.HALF_FLUSH, P.FULL_FLUSH, P.HALF_FLUSH_PUNGS, P.FULL_FLUSH_PUNGS, P.ALL_HONOURS]
VALUED += [P.ALL_HONOURS_PUNGS, P.BIG_HANGING, P.KONG_BLOOM, P.CONCEALED, P.HEAVENLY, P.EARTHLY]


def table(keys, values, max_size: int = 5):
    """A table as (key, value) entries in a random order, each key once."""
    return st.lists(st.tuples(st.sampled_from(keys), values), max_size=max_size, unique_by=lambda e: e[0])


VALUE_OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "lazi_value": st.integers(1, 60),
        "ordinary_base": st.integers(0, 6),
        "ordinary_lazi_threshold": st.integers(0, 40),
        "fixed_values": table(VALUED, st.integers(0, 80)),
        "fan": table(VALUED, st.integers(0, 3)),
        "flower_values": table(list(FlowerSource), st.integers(0, 6)),
        "floor_patterns": st.frozensets(st.sampled_from(VALUED), max_size=3),
        "qualifying_patterns": st.frozensets(st.sampled_from(VALUED), min_size=1, max_size=6),
        "combine_fixed": st.sampled_from(CombineFixed),
        "fan_on_fixed": st.booleans(),
    },
)
SHARES = st.integers(0, 8).map(lambda n: n / 2)
PAYMENT_OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "self_draw_share": SHARES,
        "discard_share": SHARES,
        "robbing_kong_share": SHARES,
        "liability_mode": st.sampled_from(LiabilityMode),
        "liability_threshold": st.integers(1, 4),
        "liability_discard_share": SHARES,
        "liability_self_draw_share": SHARES,
        "sankou_self_draw_shares": st.tuples(SHARES, SHARES, SHARES, SHARES),
        "huangfan_multiplier": st.integers(1, 4),
        "dice_huangfan": table([(a, b) for a in range(1, 7) for b in range(a, 7)], st.integers(0, 5), 8),
        "abandon_penalty": st.integers(0, 30),
    },
)

# --- hands that split several ways ----------------------------------------------------------


@st.composite
def ambiguous_hands(draw) -> Winner:
    """Four sets and a pair, mostly of one suit (where splits are most ambiguous), at most one meld."""
    suit = draw(st.integers(0, 2)) * 9
    tiles: list[int] = []
    melds: list[Meld] = []
    meld_kind = draw(st.sampled_from((None, None, None, MeldKind.CHOW, MeldKind.PUNG, MeldKind.CONCEALED_KONG)))
    # Half the hands start with the same chow three times (111 222 333): pungs or chows.
    triple = suit + draw(st.integers(0, 6)) if draw(st.booleans()) else None
    for index in range(4):
        kind = draw(st.sampled_from(("chow", "chow", "pung", "pung", "honour", "other")))
        if triple is not None and 1 <= index <= 3:
            tiles += [triple, triple + 1, triple + 2]
            continue
        if kind == "honour":
            first, shape = draw(st.integers(FIRST_HONOUR, 33)), "pung"
        elif kind == "other":
            first, shape = (suit + 9) % 27 + draw(st.integers(0, 6)), draw(st.sampled_from(("chow", "pung")))
        else:
            first, shape = suit + draw(st.integers(0, 6 if kind == "chow" else 8)), kind
        if index == 0 and meld_kind == MeldKind.CHOW:
            first, shape = suit + draw(st.integers(0, 6)), "chow"
        elif index == 0 and meld_kind is not None:
            shape = "pung"
        set_tiles = [first, first + 1, first + 2] if shape == "chow" else [first] * 3
        tiles += set_tiles  # the first set is the meld's, when there is one
        if index == 0 and meld_kind is not None:
            if meld_kind == MeldKind.CONCEALED_KONG:
                set_tiles = [first] * 4
            melds.append(Meld(meld_kind, tuple(Tile(t) for t in set_tiles), 3 if shape == "chow" else 2))
    pair = draw(st.one_of(st.integers(suit, suit + 8), st.integers(FIRST_HONOUR, 33)))
    concealed_start = 3 if melds else 0
    concealed = tiles[concealed_start:] + [pair, pair]
    every = tiles + [pair, pair] + (list(melds[0].tiles[3:]) if melds else [])
    assume(max(counts_of(every)) <= 4)
    win = draw(st.sampled_from(concealed))
    flowers = tuple(draw(st.lists(st.sampled_from(ALL_FLOWERS), max_size=7, unique=True)))
    hand = Hand(tuple(Tile(t) for t in sorted(concealed)), Tile(win), tuple(melds), flowers)
    return Winner(0, hand, (), draw(st.booleans()), False)


PUNGS_VARIANT = {P.FULL_FLUSH: P.FULL_FLUSH_PUNGS, P.HALF_FLUSH: P.HALF_FLUSH_PUNGS, P.ALL_HONOURS: P.ALL_HONOURS_PUNGS}
PUNGS_PATTERNS = {P.ALL_PUNGS, *PUNGS_VARIANT.values()}


def reading_values(profile, winner: Winner, outcome, patterns) -> list[tuple[bool, int, bool]]:
    """(may win, value, all pungs) of every split of the concealed tiles, by brute force.

    The patterns that do not depend on the split are the result's; the pungs patterns are
    worked out here for each split."""
    hand = winner.hand
    counts = counts_of(hand.concealed)
    common = [p for p in patterns if p not in PUNGS_PATTERNS]
    no_chow_meld = all(m.kind != MeldKind.CHOW for m in hand.melds)
    found = []
    for pungs, only_pungs in brute_force(tuple(counts), True):
        all_pungs = only_pungs and no_chow_meld
        reading = set(common)
        if all_pungs:
            reading |= {P.ALL_PUNGS} | {PUNGS_VARIANT[p] for p in common if p in PUNGS_VARIANT}
        mask = sum(p.bit for p in reading)
        sources = flower_sources(counts, hand.melds, len(hand.flowers), pungs)
        value = hand_value(profile, mask, sources, flower_total(profile, sources))[0]
        found.append((bool(mask & profile.qualifying_mask), value, all_pungs))
    return found


@settings(max_examples=400, deadline=None)
@given(ambiguous_hands(), VALUE_OVERRIDES, st.sampled_from(("classic", "sankou", "lezi")), st.booleans())
def test_the_reading_that_counts_is_the_most_valuable(winner, overrides, name, self_draw):
    outcome = Outcome.SELF_DRAW if self_draw else Outcome.DISCARD
    if not self_draw:
        winner = winner._replace(replacement_draw=False)  # only a self-draw is won on a replacement tile
    request = SettleRequest(profile=name, outcome=outcome, winners=(winner,), discarder_seat=1, overrides=overrides)
    (result,) = settle(request).winners
    profile, _ = resolve_profile(name, overrides)
    readings = reading_values(profile, winner, outcome, result.patterns)
    assert readings, "the hand is complete"
    legal = [r for r in readings if r[0]]
    assert result.legal == bool(legal)
    if not legal:
        return
    best = max(value for _, value, _ in legal)
    assert result.base_value == best
    pungs_at_best = any(all_pungs for _, value, all_pungs in legal if value == best)
    assert (P.ALL_PUNGS in result.patterns) == pungs_at_best


def shuffled(overrides: dict, draw) -> dict:
    """The same overrides with every table's and list's entries in another order."""
    out = {}
    for field, value in overrides.items():
        if isinstance(value, list | tuple) and field != "sankou_self_draw_shares":
            value = draw(st.permutations(value))
        out[field] = value
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), VALUE_OVERRIDES, PAYMENT_OVERRIDES, st.data())
def test_settling_does_not_depend_on_the_order_of_entries(seed, values, payments, data):
    overrides = {**values, **payments}
    request = replace(HandGenerator(seed).request(), overrides=overrides)
    reordered = replace(request, overrides=shuffled(overrides, data.draw))
    try:
        expected = settle(request)
    except InvalidRequest as error:
        try:
            settle(reordered)
        except InvalidRequest as again:
            assert sorted(again.violations) == sorted(error.violations)
            return
        raise AssertionError("only one order was refused") from None
    assert settle(reordered) == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), VALUE_OVERRIDES, PAYMENT_OVERRIDES)
def test_seat_deltas_sum_to_zero_under_any_overrides(seed, values, payments):
    request = replace(HandGenerator(seed).request(), overrides={**values, **payments})
    try:
        result = settle(request)
    except InvalidRequest:
        return
    penalty = sum(p.amount for p in result.penalties)
    assert sum(result.seat_deltas) == -penalty
    for winner in result.winners:
        paid = sum(p.amount for p in result.payments if p.to_seat == winner.seat)
        assert winner.legal or paid == 0


def test_the_built_in_profiles_keep_the_shortcut_and_the_sankou_repro_does_not():
    assert all(pungs_reading_always_best(p) for p in BUILTIN_PROFILES.values())
    assert not pungs_reading_always_best(resolve_profile("sankou", {"lazi_value": 40})[0])
    assert pungs_reading_always_best(resolve_profile("classic", {"ordinary_base": 5})[0])


@settings(max_examples=300, deadline=None)
@given(ambiguous_hands(), st.sampled_from(("classic", "sankou", "lezi")), st.booleans())
def test_the_shortcut_changes_no_built_in_result(winner, name, self_draw):
    """The proof of `pungs_reading_always_best`, held to the readings valued both ways."""
    outcome = Outcome.SELF_DRAW if self_draw else Outcome.DISCARD
    if not self_draw:
        winner = winner._replace(replacement_draw=False)
    request = SettleRequest(profile=name, outcome=outcome, winners=(winner,), discarder_seat=1)
    expected = settle(request)
    legality.pungs_reading_always_best = lambda _profile: False
    try:
        assert settle(request) == expected
    finally:
        legality.pungs_reading_always_best = pungs_reading_always_best


def test_a_flush_worth_more_than_its_pungs_variant_is_read_with_its_chows():
    """混一色 raised to 21 beside 混碰's 20: `111m 222m 333m 444m EE` read as three chows and a
    pung (混一色, 21) is worth more than read as four pungs (混碰 supersedes 混一色, 20)."""
    overrides = {
        "lazi_value": 1,
        "ordinary_base": 0,
        "qualifying_patterns": [P.ALL_PUNGS, P.HALF_FLUSH],
        "fan_on_fixed": False,
        "floor_patterns": [],
        "flower_values": [],
        "fan": [],
        "combine_fixed": CombineFixed.SUM,
        "fixed_values": [(P.HALF_FLUSH, 21)],
    }
    assert not pungs_reading_always_best(resolve_profile("classic", overrides)[0])
    tiles = tuple(Tile(t) for t in (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, FIRST_HONOUR, FIRST_HONOUR))
    winner = Winner(0, Hand(tiles, Tile(3), (), ()), (), False, False)
    request = SettleRequest(
        profile="classic", outcome=Outcome.DISCARD, winners=(winner,), discarder_seat=1, overrides=overrides
    )
    (result,) = settle(request).winners
    assert (result.legal, result.base_value) == (True, 21)
    assert set(result.patterns) == {P.HALF_FLUSH, P.CONCEALED}
