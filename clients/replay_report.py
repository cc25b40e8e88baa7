"""A hand record told as it went (``shmj replay``): each event, the hands where they change, every
pass (漏胡) with the win it could have been and when its lock lifted, the request the events
imply, and the settlement.

The hands are followed by `rules_core.replay.Replay` without a profile (tiles only: the passes
come from the answer, which a server may have judged under a house profile of its own); whether
a drawn 中发白 is a flower (RULES.md 14.6) is read from the record itself.
"""

from __future__ import annotations

from clients.report import pad, printable, settlement_table, tile_label, words
from convert.json_read import read_winner
from rules_core.liability_words import claimed_phrase
from rules_core.notation import format_flowers, format_hand, format_meld, format_tiles
from rules_core.patterns import Pattern
from rules_core.profile_words import pattern_words
from rules_core.records import EventKind, HandEvent, SettleRecordRequest
from rules_core.replay import Replay, dragons_shown_as_flowers
from rules_core.tiles import FIRST_DRAGON
from rules_core.vocabulary import TERMS, term

# The events after which a seat's locks lift: it draws, chows, pungs or lays down a kong.
_ACTIONS = frozenset(
    {
        EventKind.DRAW,
        EventKind.CHOW,
        EventKind.PUNG,
        EventKind.EXPOSED_KONG,
        EventKind.ADDED_KONG,
        EventKind.CONCEALED_KONG,
    }
)
_CONCEALED = f"PATTERN_{Pattern.CONCEALED.name}"
_ACTION_WORDS = {  # the seat's act that lifts its locks, in words (rules_core.vocabulary)
    EventKind.DRAW: "draws",
    EventKind.CHOW: "chows",
    EventKind.PUNG: "pungs",
    EventKind.EXPOSED_KONG: "any_kong",
    EventKind.ADDED_KONG: "any_kong",
    EventKind.CONCEALED_KONG: "any_kong",
}


def _pattern_names(names: list) -> str:
    """The patterns of the win a seat passed, 门清 left out (every such win has it); a name or
    number this client does not know (a newer server's) as it came."""
    shown = [pattern_words(name) for name in names if name != _CONCEALED]
    return ", ".join(shown) or term("a_legal_win")


def _lifted_at(events: tuple[HandEvent, ...], seat: int, after: int) -> tuple[int, str] | None:
    for index in range(after + 1, len(events)):
        event = events[index]
        if event.seat == seat and event.kind in _ACTIONS:
            return index, _ACTION_WORDS[event.kind]
    return None


def pass_line(events: tuple[HandEvent, ...], found: dict) -> str:
    seat, index = found.get("seat", 0), found.get("eventIndex", 0)
    tile = tile_label(found.get("tile", ""))
    lifted = _lifted_at(events, seat, index)
    if lifted:
        act, until_words = TERMS[lifted[1]], TERMS["locked_until"]
        until = f"{until_words.en} {act.en} at event {lifted[0]} {until_words.zh}第{lifted[0]}步{act.zh}"
    else:
        until = term("locked_to_the_end")
    patterns = _pattern_names(found.get("patterns", []))
    could, passed = TERMS["could_have_won"], TERMS["and_passed"]
    return f"      seat {seat} {could.en} {tile} here — {patterns} — {passed.en} {could.zh}; {until}"


def _said(seat: int, key: str, what: str = "") -> str:
    """``seat 0 discards 打出 9p``: the seat, the act in English then Chinese, what it acted on."""
    return f"seat {seat} {term(key)}" + (f" {what}" if what else "")


def _event_text(event: HandEvent, replay: Replay, outcome: str) -> str:
    seat, kind = event.seat, event.kind
    if kind == EventKind.DEAL:
        shown = event.flowers or event.dragon_flowers
        flowers = f" ({term('flowers')} {format_flowers(event.flowers, event.dragon_flowers)})" if shown else ""
        return _said(seat, "is_dealt", format_tiles(event.tiles) + flowers)
    if kind == EventKind.DRAW:
        if event.flower:
            return _said(seat, "draws_flower", f"{int(event.flower)}f")
        if replay.dragons_are_flowers and event.tile is not None and event.tile >= FIRST_DRAGON:
            return _said(seat, "draws_flower", format_flowers((), (event.tile,)))  # 中发白 as a flower: Cf
        return _said(seat, "draws", _tile(event.tile))
    if kind == EventKind.DECLARE:
        return _said(seat, "knocks")
    if kind == EventKind.DISCARD:
        return _said(seat, "discards", _tile(event.tile))
    if kind in (EventKind.CHOW, EventKind.PUNG, EventKind.EXPOSED_KONG):
        meld = replay.seats[seat].melds[-1]
        key = {EventKind.CHOW: "chows", EventKind.PUNG: "pungs", EventKind.EXPOSED_KONG: "kongs"}[kind]
        return _said(seat, key, f"seat {meld.from_seat}'s discard: {format_meld(meld)}")
    if kind == EventKind.ADDED_KONG:
        return _said(seat, "adds_to_its_pung", _tile(event.tile))
    if kind == EventKind.CONCEALED_KONG:
        return _said(seat, "concealed_kong", _tile(event.tile))
    if kind == EventKind.WIN:
        last = f", {term('on_the_last_tile')}" if event.last_tile else ""
        return _said(seat, "claims_a_win", f": {words(outcome)}{last}").replace(" : ", ": ")
    if kind == EventKind.EXHAUSTIVE_DRAW:
        return term("wall_exhausted")
    return _said(seat, "leaves")


def _tile(tile) -> str:
    return format_tiles((tile,))


def _hand(replay: Replay, seat: int) -> str:
    hand = replay.seats[seat]
    return format_hand(hand.concealed(), hand.melds, hand.flowers, hand.dragon_flowers)


def _changes_hand(kind: EventKind) -> bool:
    return kind not in (
        EventKind.DRAW,
        EventKind.WIN,
        EventKind.EXHAUSTIVE_DRAW,
        EventKind.ABANDON,
        EventKind.DECLARE,
    )


def record_story(
    record: SettleRecordRequest, response: dict, threshold: int | None = None, profile: dict | None = None
) -> str:
    """The record told event by event, then the derived request and the settlement
    (``threshold``: the profile's liability threshold, to say why a liable seat pays twice;
    ``profile``: the effective RuleProfile, to say how its 番 act and who pays under it)."""
    events = record.events
    derived = response.get("derived", {})
    outcome = derived.get("outcome", "")
    passes_at: dict[int, list[dict]] = {}
    for found in response.get("passes", []):
        passes_at.setdefault(found.get("eventIndex", 0), []).append(found)
    title = f"{term('record')} {printable(record.request_id)}  " if record.request_id else f"{term('record')}  "
    lines = [
        f"{title}{term('profile').lower()} {record.profile}, {term('dealer')} seat {record.dealer_seat},"
        f" {len(events)} {term('events')}"
    ]
    width = len(str(len(events) - 1))
    replay = Replay(None, record.dealer_seat, dragons_are_flowers=dragons_shown_as_flowers(events))
    for index, event in enumerate(events):
        replay.apply(index, event)
        text = _event_text(event, replay, outcome)
        if _changes_hand(event.kind) and event.kind != EventKind.DEAL:
            text = f"{pad(text, 52)}  {_hand(replay, event.seat)}"
        lines.append(f"  {index:>{width}}  {text}")
        for found in passes_at.get(index, []):
            lines.append(pass_line(events, found))
    lines += [
        "",
        *derived_lines(derived),
        "",
        settlement_table(
            response.get("settlement", {}),
            derived.get("liabilities", []),
            threshold,
            profile,
            derived.get("declaredSeats"),
        ),
    ]
    lines += recorded_lines(record, response)
    return "\n".join(lines)


def derived_lines(derived: dict) -> list[str]:
    outcome = derived.get("outcome", "")
    head = f"{term('derived_request')}  {words(outcome)}"
    if outcome in ("OUTCOME_DISCARD", "OUTCOME_ROBBING_KONG"):
        head += f", from seat {derived.get('discarderSeat', 0)}"
    if outcome == "OUTCOME_ABANDON":
        head += f", {_said(derived.get('abandoningSeat', 0), 'leaves')}"
    lines = [head]
    for index, data in enumerate(derived.get("winners", [])):
        winner = read_winner(data, f"winners[{index}]", [])
        hand = winner.hand
        text = f"  seat {winner.seat}  {format_hand(hand.concealed, hand.melds, hand.flowers, hand.dragon_flowers)}"
        if hand.winning_tile is not None:
            text += f"  {TERMS['on_tile'].en} {_tile(hand.winning_tile)} {TERMS['on_tile'].zh}"
        flags = []
        if winner.passed_tiles:
            flags.append(f"{term('locked')} {format_tiles(winner.passed_tiles)}")
        if winner.replacement_draw:
            flags.append(term("replacement_draw"))
        if winner.first_go_around:
            flags.append(term("first_go_around"))
        if winner.last_tile:
            flags.append(term("on_the_last_tile"))
        lines.append(text + (f"  ({', '.join(flags)})" if flags else ""))
    knocked = derived.get("declaredSeats", [])
    if knocked:
        lines.append(f"  {term('knocked_seats')}: seat {', '.join(str(seat) for seat in knocked)}")
    for relation in derived.get("liabilities", []):
        seats = (relation.get("claimerSeat", 0), relation.get("sourceSeat", 0), relation.get("claims", 0))
        lines.append(f"  {claimed_phrase(*seats)}")
    return lines


def recorded_lines(record: SettleRecordRequest, response: dict) -> list[str]:
    if not record.recorded_deltas:
        return []
    recorded = "  ".join(f"{d:+g}" for d in record.recorded_deltas)
    seats = response.get("mismatchedSeats", [])
    if response.get("recordedMatch"):
        return [f"{term('recorded_deltas')}  {recorded}  {term('match_the_settlement')}"]
    return [f"{term('recorded_deltas')}  {recorded}  {term('differ_at_seats')} {', '.join(str(s) for s in seats)}"]
