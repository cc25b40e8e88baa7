"""Properties that hold for every request (hypothesis draws the generator's seed)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from generators.random_hands import HandGenerator
from rules_core import Hand, InvalidRequest, ListWaitsRequest, Outcome, Winner, list_waits, settle
from rules_core.requests import LiabilityRelation, replace
from rules_core.tiles import ALL_FLOWERS

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def settled(seed):
    request = HandGenerator(seed).request()
    try:
        return request, settle(request)
    except InvalidRequest:
        return request, None


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_seat_deltas_sum_to_zero_except_an_abandon(seed):
    request, result = settled(seed)
    if result is None:
        return
    total = sum(result.seat_deltas)
    if request.outcome == Outcome.ABANDON:
        assert total == -15
    else:
        assert total == 0
    for amount in result.seat_deltas:
        assert amount * 2 == int(amount * 2)  # multiples of 0.5


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_an_illegal_winner_never_receives_payments(seed):
    _, result = settled(seed)
    if result is None:
        return
    illegal = {w.seat for w in result.winners if not w.legal}
    assert not any(p.to_seat in illegal for p in result.payments)
    for w in result.winners:
        if not w.legal:
            assert w.value == 0 and w.illegal_reasons


def rotate(request, k):
    def seat(s):
        return (s + k) % 4

    winners = tuple(
        replace(
            w,
            seat=seat(w.seat),
            hand=replace(w.hand, melds=tuple(replace(m, from_seat=seat(m.from_seat)) for m in w.hand.melds)),
        )
        for w in request.winners
    )
    return replace(
        request,
        winners=winners,
        dealer_seat=seat(request.dealer_seat),
        discarder_seat=seat(request.discarder_seat),
        abandoning_seat=seat(request.abandoning_seat),
        liabilities=tuple(
            LiabilityRelation(seat(r.claimer_seat), seat(r.source_seat), r.claims) for r in request.liabilities
        ),
    )


@settings(max_examples=200, deadline=None)
@given(seeds, st.integers(min_value=1, max_value=3))
def test_rotating_every_seat_rotates_the_deltas(seed, k):
    request, result = settled(seed)
    if result is None:
        return
    rotated = settle(rotate(request, k))
    assert rotated.seat_deltas == tuple(result.seat_deltas[(s - k) % 4] for s in range(4))
    if result.next_hand is None:
        assert rotated.next_hand is None
    else:
        assert rotated.next_hand.dealer_seat == (result.next_hand.dealer_seat + k) % 4


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_adding_a_flower_never_lowers_a_value(seed):
    request, result = settled(seed)
    if result is None or request.outcome == Outcome.EIGHT_FLOWERS:
        return
    for index, (winner, before) in enumerate(zip(request.winners, result.winners, strict=True)):
        missing = [f for f in ALL_FLOWERS if f not in winner.hand.flowers]
        if not before.legal or not missing:
            continue
        more = replace(winner, hand=replace(winner.hand, flowers=winner.hand.flowers + (missing[0],)))
        winners = request.winners[:index] + (more,) + request.winners[index + 1 :]
        after = settle(replace(request, winners=winners)).winners[index]
        assert after.value >= before.value
        assert after.flowers == before.flowers + 1


@settings(max_examples=100, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=13))
def test_waits_agree_with_settling_each_tile(seed, drop):
    generator = HandGenerator(seed)
    request = generator.request()
    if not request.winners or request.outcome == Outcome.EIGHT_FLOWERS:
        return
    winner = request.winners[0]
    concealed = list(winner.hand.concealed)
    del concealed[drop % len(concealed)]
    short = Hand(tuple(concealed), None, winner.hand.melds, winner.hand.flowers)
    waits_request = ListWaitsRequest(
        profile=request.profile,
        seat=winner.seat,
        hand=short,
        passed_tiles=winner.passed_tiles,
        dealer_seat=request.dealer_seat,
        dice=request.dice,
        huangfan_count=request.huangfan_count,
    )
    try:
        waits = list_waits(waits_request)
    except InvalidRequest:
        return
    by_discard = {w.tile: w.result.value for w in waits.discard}
    by_self_draw = {w.tile: w.result.value for w in waits.self_draw}
    discarder = (winner.seat + 1) % 4
    for tile in range(34):
        full = Hand(tuple(sorted(concealed + [tile])), tile, short.melds, short.flowers)
        candidate = Winner(winner.seat, full, winner.passed_tiles, False, False)
        for outcome, listed in ((Outcome.DISCARD, by_discard), (Outcome.SELF_DRAW, by_self_draw)):
            settle_request = replace(
                request, outcome=outcome, winners=(candidate,), discarder_seat=discarder, liabilities=()
            )
            try:
                judged = settle(settle_request).winners[0]
            except InvalidRequest:
                assert tile not in listed
                continue
            if judged.legal:
                assert listed.get(tile) == judged.value
            else:
                assert tile not in listed


def test_generator_is_deterministic():
    assert [HandGenerator(7).request(i) for i in range(5)] == [HandGenerator(7).request(i) for i in range(5)]
