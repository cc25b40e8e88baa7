"""Readable tables of settlements and waits, from their proto3 JSON form."""

from __future__ import annotations

import unicodedata

from rules_core.liability_words import payments_why
from rules_core.profile_words import enum_words, pattern_words
from rules_core.tiles import TILE_NOTATION
from rules_core.value_words import ValueRules, item_effect, value_sum
from rules_core.vocabulary import ENUM_WORDS, term

words = enum_words  # an enum value as a person reads it: ``self-draw 自摸``
pattern_label = pattern_words  # ``Full flush 清一色`` for ``PATTERN_FULL_FLUSH``


def printable(text: str) -> str:
    """Text from the input (a request id) as a terminal may be given it: as it is when every
    character prints, else quoted with escapes, so that no escape sequence or direction override
    in a file reaches the terminal."""
    return text if text.isprintable() else repr(text)


def display_width(text: str) -> int:
    """Columns a terminal gives the text: two for a wide (East Asian) character such as 花."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (``f"{text:<14}"`` counts
    characters, which leaves a Chinese column two spaces short per character)."""
    return text + " " * max(width - display_width(text), 0)


def pad_left(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal columns."""
    return " " * max(width - display_width(text), 0) + text


def _number(value: float) -> str:
    return f"{value:g}"


def tile_label(name: str | int) -> str:
    if isinstance(name, int):
        return TILE_NOTATION[name - 1]
    from convert.json_names import TILE

    return TILE.by_name[name].notation


TODAYS_RULES = ValueRules()  # 番 double, as in classic, sankou and lezi


def winner_lines(winner: dict, unit: str, rules: ValueRules = TODAYS_RULES) -> list[str]:
    """The winner's verdict and, for a legal one, each item of its value, how they add up
    (`rules_core.value_words`) and the value. ``rules``: what the words need of the profile."""
    seat = winner.get("seat", 0)
    legal = winner.get("legal", False)
    patterns = ", ".join(pattern_label(p) for p in winner.get("patterns", [])) or term("no_pattern")
    verdict = term("legal" if legal else "not_legal")
    lines = [f"Seat {seat}  {verdict}  {patterns}  ({term('flowers')} {winner.get('flowers', 0)})"]
    if not legal:
        reasons = ", ".join(words(r) for r in winner.get("illegalReasons", []))
        lines.append(f"  {term('why')}: {reasons}")
        return lines
    items = winner.get("items", [])
    fixed = any(item.get("kind") == "ITEM_KIND_PATTERN" for item in items)
    for item in items:
        count = item.get("count", 1)
        name = item.get("nameEn", "") + (f" x{count}" if count > 1 else "")
        lines.append(f"  {pad(name, 44)} {pad(item.get('nameZh', ''), 16)} {item_effect(item, rules, fixed)}")
    total = value_sum(winner, rules)
    if total:
        lines.append(f"  {total}")
    lines.append(
        f"  {term('value_per_share')} = {_number(winner.get('value', 0.0))} {unit}"
        f"  ({term('before_multipliers')} {_number(winner.get('baseValue', 0.0))})"
    )
    return lines


def payment_lines(
    payments: list[dict],
    unit: str,
    liabilities: list[dict],
    threshold: int | None,
    mode: str = "",
    declared: list[int] | None = None,
) -> list[str]:
    """Each payment, and under a liability (承包) or 三口 payment why that seat pays
    (`rules_core.liability_words`, the explorer's words too)."""
    lines = [term("payments")]
    for payment, why in zip(payments, payments_why(payments, liabilities, threshold, mode, declared), strict=True):
        amount = pad_left(f"{_number(payment.get('amount', 0.0))} {unit}", 8)
        lines.append(
            f"  seat {payment.get('fromSeat', 0)} -> seat {payment.get('toSeat', 0)}  {amount}"
            f"  {words(payment.get('reason', ''))}"
        )
        lines += [f"      {phrase}" for phrase in why]
    return lines


def settlement_table(
    response: dict,
    liabilities: list[dict] | None = None,
    threshold: int | None = None,
    profile: dict | None = None,
    declared: list[int] | None = None,
) -> str:
    """The settlement as a person reads it. ``liabilities`` are the request's claims (proto3
    JSON) and ``threshold`` the effective profile's liability threshold, for saying why a liable
    seat pays (twice); ``profile``, the effective RuleProfile (proto3 JSON), says how 番 act and
    the liability mode, and ``declared`` the request's knocked seats (RULES.md section 14)."""
    profile = profile or {}
    if threshold is None and "liabilityThreshold" in profile:
        threshold = int(profile["liabilityThreshold"])
    rules = ValueRules.of(profile)
    unit_words = ENUM_WORDS.get(response.get("unit", ""))
    unit = unit_words.zh if unit_words else ""
    unit_said = f"{unit_words.zh} {unit_words.en}" if unit_words else ""
    lines = [
        f"{term('profile')} {response.get('profile', '')}  ({term('unit')}: {unit_said})"
        + (f"  {term('request')} {printable(response['requestId'])}" if response.get("requestId") else "")
    ]
    for winner in response.get("winners", []):
        lines += winner_lines(winner, unit, rules)
    payments = response.get("payments", [])
    if payments:
        mode = profile.get("liabilityMode", "")
        lines += payment_lines(payments, unit, liabilities or [], threshold, mode, declared)
    for penalty in response.get("penalties", []):
        lines.append(
            f"{term('penalty')}  seat {penalty.get('seat', 0)} {term('loses')} "
            f"{_number(penalty.get('amount', 0.0))} {unit}  ({words(penalty.get('reason', ''))})"
        )
    deltas = "  ".join(f"{d:+g}" for d in response.get("seatDeltas", []))
    lines.append(f"{term('seat_deltas')}  {deltas}")
    lines.append(f"{term('huangfan_after_dice')}  {response.get('huangfanAfterDice', 0)}")
    if "nextHand" in response:
        next_hand = response["nextHand"]
        lines.append(
            f"{term('next_hand')}  {term('dealer')} seat {next_hand.get('dealerSeat', 0)},"
            f" {term('huangfan_count')} {next_hand.get('huangfanCount', 0)}"
        )
    else:
        lines.append(f"{term('next_hand')}  {term('no_next_hand')}")
    return "\n".join(lines)


def check_table(response: dict, profile: dict, name: str) -> str:
    """A CheckWin answer as a person reads it: the profile and unit, then the winner as
    `settlement_table` prints one. ``profile`` is the effective RuleProfile (proto3 JSON)."""
    unit_words = ENUM_WORDS.get(profile.get("unit", ""))
    unit_said = f"{unit_words.zh} {unit_words.en}" if unit_words else ""
    request_id = f"  {term('request')} {printable(response['requestId'])}" if response.get("requestId") else ""
    lines = [f"{term('profile')} {name}  ({term('unit')}: {unit_said}){request_id}"]
    lines += winner_lines(response.get("result", {}), unit_words.zh if unit_words else "", ValueRules.of(profile))
    return "\n".join(lines)


def waits_table(response: dict) -> str:
    """Each winning tile, on a discard and by self-draw, with its value per share V."""
    lines = []
    for key, title in (("discardWaits", "on_a_discard"), ("selfDrawWaits", "by_self_draw")):
        waits = response.get(key, [])
        lines.append(
            f"{term(title)}: {len(waits)} {term('winning_tiles')}" + (f", {term('value_per_share')}" if waits else "")
        )
        for wait in waits:
            result = wait.get("result", {})
            patterns = ", ".join(pattern_label(p) for p in result.get("patterns", []))
            lines.append(f"  {tile_label(wait['tile']):<3} V = {_number(result.get('value', 0.0)):>5}  {patterns}")
    return "\n".join(lines)
