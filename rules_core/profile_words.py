"""Each `RuleProfile` field's value as a person reads it, from the profile's proto3 JSON:
amounts with the profile's unit (``10 分``), shares of V (``3 × V 份``), multipliers (``×2``),
patterns and enum values in words, English then Chinese (`rules_core.vocabulary`).

One wording for every reader: `shmj profiles` prints these lines under the field labels, the
explorer's Profiles view asks for them (``POST /explorer/profile-words``).
"""

from __future__ import annotations

from collections.abc import Callable

from rules_core.patterns import Pattern
from rules_core.profile import FAMILY_FIELDS, FAMILY_FLAG_FIELDS
from rules_core.vocabulary import ENUM_WORDS, PROFILE_FIELD_WORDS, TERMS, term


def enum_words(name) -> str:
    """``self-draw 自摸`` for an enum value's JSON name; the name itself for one without words
    (an unknown value's number, as proto3 JSON gives it)."""
    found = ENUM_WORDS.get(name) if isinstance(name, str) else None
    return f"{found.en} {found.zh}" if found else str(name)


def pattern_words(name) -> str:
    """``Full flush 清一色`` for ``PATTERN_FULL_FLUSH``; a value that is no pattern as it is."""
    pattern = Pattern.__members__.get(name.removeprefix("PATTERN_")) if isinstance(name, str) else None
    return f"{pattern.name_en} {pattern.name_zh}" if pattern is not None else str(name)


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _number(value) -> str:
    return f"{float(value or 0):g}"


def _share(value) -> str:
    times = TERMS["times_v"]
    return f"{_number(value)} {times.en} {times.zh}"


def _throw(dice: dict) -> str:
    return f"{dice.get('first', 0)},{dice.get('second', 0)}"


def _amount_or_off(value, unit: str, off: str) -> list[str]:
    return [f"{_number(value)} {unit}" if value else f"0 ({term(off)})"]


def _patterns(value) -> list[str]:
    return [pattern_words(p) for p in value or ()] or [term("none")]


def _pattern_values(suffix: Callable[[int, str], str]) -> Callable[[object, str], list[str]]:
    def said(value, unit: str) -> list[str]:
        return [f"{pattern_words(e['pattern'])} {suffix(e.get('value', 0), unit)}" for e in value or ()] or [
            term("none")
        ]

    return said


def _dice_huangfan(value, unit: str) -> list[str]:
    by_count: dict[int, list[str]] = {}
    for entry in value or ():
        by_count.setdefault(entry.get("value", 0), []).append(_throw(entry.get("dice", {})))
    lines = [
        f"+{n} {term('more_huangfan')}: {'  '.join(throws)}" for n, throws in sorted(by_count.items(), reverse=True)
    ]
    return lines or [term("none")]


def _sankou_shares(value, unit: str) -> list[str]:
    seats = TERMS["related_seats"]
    return [f"{seats.en} {seats.zh} {count}: {_share(share)}" for count, share in enumerate(value or ())]


def _claims(value, unit: str) -> list[str]:
    claims = TERMS["claims_from_one_seat"]
    return [f"{value or 0} {claims.en} {claims.zh}"]


def _flag(value, unit: str) -> list[str]:
    return [term("yes" if value else "no")]


def _fan(value, unit: str) -> list[str]:
    return [f"{value or 0} {term('fan')}"]


def _fan_or_off(value, unit: str) -> list[str]:
    return _fan(value, unit) if value else [f"0 ({term('no_limit')})"]


def _flowers(value, unit: str) -> list[str]:
    return [f"{value or 0} {term('flowers')}"]


def _cap(profile: dict, unit: str) -> list[str]:
    """``7 (the cap is 封顶 8 勒 = 80 分)``: the cap ``cap_lazi_extra`` gives, in 喇 / 勒 and in units;
    ``0 (no cap 不封顶)`` under ``uncapped``, where it gives none."""
    extra = profile.get("capLaziExtra") or 0
    if profile.get("uncapped"):
        words = PROFILE_FIELD_WORDS["uncapped"]
        return [f"{extra} ({words.en} {words.zh})"]
    word = "勒" if profile.get("unit") == "UNIT_POINT" else "喇"
    amount = _number((extra + 1) * (profile.get("laziValue") or 0))
    return [f"{extra} ({term('cap_is')} {extra + 1} {word} = {amount} {unit})"]


# How each field's value is said (``unit``: the profile's, in Chinese); fields not named here
# are counts printed as they are.
_SAID: dict[str, Callable[[object, str], list[str]]] = {
    "unit": lambda v, u: [enum_words(v)],
    "lazi_value": lambda v, u: [f"{_number(v)} {u}"],
    "ordinary_base": lambda v, u: [f"{_number(v)} {u}"],
    "ordinary_lazi_threshold": lambda v, u: _amount_or_off(v, u, "not_used"),
    "fixed_values": _pattern_values(lambda n, u: f"= {n} {u}"),
    "fan": _pattern_values(lambda n, u: f"{n} {term('fan')}"),
    "floor_patterns": lambda v, u: _patterns(v),
    "qualifying_patterns": lambda v, u: _patterns(v),
    "combine_fixed": lambda v, u: [enum_words(v)],
    "fan_on_fixed": _flag,
    "flower_values": lambda v, u: [f"{enum_words(e['source'])} {e.get('value', 0)} {u}" for e in v or ()],
    "huangfan_mode": lambda v, u: [enum_words(v)],
    "huangfan_multiplier": lambda v, u: [f"×{v}"],
    "dice_huangfan": _dice_huangfan,
    "kaibao_throws": lambda v, u: ["  ".join(_throw(d) for d in v or ()) or term("none")],
    "kaibao_multiplier": lambda v, u: [f"×{v}"],
    "self_draw_share": lambda v, u: [_share(v)],
    "discard_share": lambda v, u: [_share(v)],
    "robbing_kong_share": lambda v, u: [_share(v)],
    "liability_mode": lambda v, u: [enum_words(v)],
    "liability_threshold": _claims,
    "liability_discard_share": lambda v, u: [_share(v)],
    "liability_self_draw_share": lambda v, u: [_share(v)],
    "liability_robbing_kong_share": lambda v, u: [_share(v)],
    "sankou_self_draw_shares": _sankou_shares,
    "sankou_related_discarder_share": lambda v, u: [_share(v)],
    "sankou_related_seat_share": lambda v, u: [_share(v)],
    "abandon_penalty": lambda v, u: _amount_or_off(v, u, "no_abandon_rule"),
    # RULES.md section 14: its flags are yes or no (below); cap_lazi_extra, which needs the
    # whole profile, is said by `_cap`
    "ordinary_base_fan": _fan,
    "shape_fan": _pattern_values(lambda n, u: f"{n} {term('fan')}"),
    "huangfan_max_count": lambda v, u: [f"{v} {term('more_huangfan')}" if v else f"0 ({term('no_limit')})"],
    "no_flowers_value": lambda v, u: _flowers(v, u) if v else [f"0 ({term('not_used')})"],
    "ordinary_min_flowers_self_draw": _flowers,
    "ordinary_min_flowers_discard": _flowers,
    "max_fan": _fan_or_off,
    "min_fan": _fan_or_off,
    "liability_threshold_unconditional": lambda v, u: _claims(v, u) if v else [f"0 ({term('not_used')})"],
}
_SAID.update((name, _flag) for name in FAMILY_FLAG_FIELDS)


def field_values(profile: dict, every_field: bool = False) -> dict[str, list[str]]:
    """Every field but the name (snake_case, in `PROFILE_FIELD_WORDS`' order): its value's lines.
    A field of the rule families (RULES.md section 14) at its default is left out unless
    ``every_field``: it is the rule every profile of the source texts has."""
    unit_words = ENUM_WORDS.get(profile.get("unit", ""))
    unit = unit_words.zh if unit_words else ""
    said: dict[str, list[str]] = {}
    for name in PROFILE_FIELD_WORDS:
        if name == "name":
            continue
        value = profile.get(camel(name))
        if name in FAMILY_FIELDS and not value and not every_field:
            continue
        if name == "cap_lazi_extra":
            lines = _cap(profile, unit)
        else:
            lines = _SAID.get(name, lambda v, u: [str(v if v is not None else 0)])(value, unit)
        said[name] = lines or [term("none")]
    return said
