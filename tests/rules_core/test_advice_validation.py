"""RULES.md 15.1 and 15.4: a holding or a `seen` list that cannot be real is refused, naming the field."""

from __future__ import annotations

import pytest

from rules_core.advice import advise
from rules_core.advice_values import AdviseRequest
from rules_core.build import hand
from rules_core.errors import InvalidRequest, ProfileDigestMismatch
from rules_core.notation import parse_tiles
from rules_core.requests import Meld, MeldKind
from rules_core.tiles import Tile


def violations(text="111m 555m 999p CC 77s", seen="", seat=1, **changes) -> list[tuple[str, str]]:
    tiles = parse_tiles(seen) if isinstance(seen, str) and seen else tuple(seen)
    request = AdviseRequest("classic", seat, hand(text), tiles)._replace(**changes)
    with pytest.raises(InvalidRequest) as refused:
        advise(request)
    return [(v.field, v.description) for v in refused.value.violations]


def fields(*args, **changes) -> list[str]:
    return [field for field, _ in violations(*args, **changes)]


def test_a_holding_of_twelve_or_fifteen_is_named_at_hand_concealed():
    assert violations("111m 555m 999p CC 7s") == [
        ("hand.concealed", "0 meld(s) leave 13 or 14 concealed tiles, got 12")
    ]
    assert fields("111m 555m 999p CC 77s 12m") == ["hand.concealed"]
    assert violations("111m 555m 99p [123s@0]") == [
        ("hand.concealed", "1 meld(s) leave 10 or 11 concealed tiles, got 8")
    ]


def test_a_winning_tile_is_malformed():
    held = hand("111m 555m 999p CC 77s")
    assert violations(hand=held._replace(winning_tile=Tile.S7)) == [
        ("hand.winning_tile", "a holding has no winning tile: leave it unset")
    ]


def test_a_fifth_copy_in_the_holding_is_named_at_hand():
    assert fields("11111m 555m 999p CC 7s") == ["hand"]
    assert violations("11m 555m 999p CC 7s [111m@2]") == [
        ("hand", "a tile has only four copies: 1m x5")
    ]  # meld counted


def test_an_unspecified_tile_a_bad_meld_and_a_bad_seat_are_each_named():
    held = hand("111m 555m 999p CC 77s")
    assert fields(hand=held._replace(concealed=(None, *held.concealed[1:]))) == ["hand.concealed[0]"]
    chow_from_across = hand("555m 999p CC 77s [123m@3]")
    assert fields(hand=chow_from_across._replace(melds=(Meld(MeldKind.CHOW, (Tile.M1, Tile.M2, Tile.M3), 3),))) == [
        "hand.melds[0].from_seat"
    ]  # seat 1's 上家 is seat 0
    not_a_pung = Meld(MeldKind.PUNG, (Tile.M1, Tile.M1, Tile.M2), 2)
    assert fields(hand=chow_from_across._replace(melds=(not_a_pung,))) == ["hand.melds[0]"]
    assert fields(seat=4) == ["seat"]


def test_seen_entries_must_be_tiles():
    assert violations(seen=(Tile.RED, None, Tile.S7, None)) == [
        ("seen[1]", "must be a specified tile"),
        ("seen[3]", "must be a specified tile"),
    ]


def test_more_than_four_of_a_tile_held_and_seen_is_named_at_seen():
    assert violations(seen="C C C") == [("seen", "a tile has only four copies: C x5 (2 held, 3 seen)")]
    assert violations("7s [123m@0] [456p@0] [777s@2] [EEE@2]", seen="7s") == [
        ("seen", "a tile has only four copies: 7s x5 (4 held, 1 seen)")
    ]  # the melds' tiles are held too
    advise(AdviseRequest("classic", 1, hand("111m 555m 999p CC 77s"), parse_tiles("C C 7s 7s")))  # four: fine


def test_a_seen_list_longer_than_every_tile_is_refused_unread():
    assert violations(seen=(None,) * 137) == [("seen", "at most 136 entries, got 137")]


def test_the_table_is_checked_as_every_request_s():
    assert fields(dealer_seat=9, huangfan_count=-1) == ["dealer_seat", "huangfan_count"]
    assert fields(profile="Classic") == ["profile"]
    with pytest.raises(ProfileDigestMismatch):
        advise(AdviseRequest("classic", 1, hand("111m 555m 999p CC 77s"), profile_digest="sha256:" + "0" * 64))


def test_faults_of_the_seat_the_hand_and_seen_are_reported_together():
    assert fields("111m 555m 999p CC 7s", seat=5, seen=(None,)) == ["seat", "hand.concealed", "seen[0]"]
