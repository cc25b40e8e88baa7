"""``shmj profiles`` as a person reads it: each profile's fields under their labels of
`rules_core.vocabulary` in English and Chinese, every value with its unit (``10 分``,
``3 × V 份``, ``×2``) and every enum value in words; ``--json`` prints the answer as it came.
"""

from __future__ import annotations

from collections.abc import Callable

from clients.report import pad, pattern_label, printable, words
from rules_core.vocabulary import ENUM_WORDS, PROFILE_FIELD_WORDS, TERMS, term

LABEL_WIDTH = 46  # terminal columns of the label column (display width: 单位 takes four)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _number(value) -> str:
    return f"{float(value or 0):g}"


class _Units:
    """The words of one profile's amounts: its unit (``分``) and the share of V (``× V 份``)."""

    def __init__(self, profile: dict):
        unit = ENUM_WORDS.get(profile.get("unit", ""))
        self.unit = unit.zh if unit else ""

    def amount(self, value) -> list[str]:
        return [f"{_number(value)} {self.unit}"]

    def amount_or_off(self, value, off: str) -> list[str]:
        return [f"{_number(value)} {self.unit}" if value else f"0 ({term(off)})"]


def _share(value) -> str:
    times = TERMS["times_v"]
    return f"{_number(value)} {times.en} {times.zh}"


def _throw(dice: dict) -> str:
    return f"{dice.get('first', 0)},{dice.get('second', 0)}"


def _enum(value) -> list[str]:
    return [words(value)]


def _flag(value) -> list[str]:
    return [term("yes" if value else "no")]


def _patterns(value) -> list[str]:
    return [pattern_label(p) for p in value or ()] or [term("none")]


def _pattern_values(suffix: Callable[[int], str]) -> Callable:
    return lambda value, units: (
        [f"{pattern_label(e['pattern'])} {suffix(e.get('value', 0), units)}" for e in value or ()] or [term("none")]
    )


def _dice_huangfan(value, units) -> list[str]:
    by_count: dict[int, list[str]] = {}
    for entry in value or ():
        by_count.setdefault(entry.get("value", 0), []).append(_throw(entry.get("dice", {})))
    return [
        f"+{count} {term('more_huangfan')}: {'  '.join(throws)}"
        for count, throws in sorted(by_count.items(), reverse=True)
    ] or [term("none")]


def _sankou_shares(value, units) -> list[str]:
    seats = TERMS["related_seats"]
    return [f"{seats.en} {seats.zh} {count}: {_share(share)}" for count, share in enumerate(value or ())]


# How each field's value is said: fields not named here are counts printed as they are.
_SAID: dict[str, Callable[[object, _Units], list[str]]] = {
    "unit": lambda v, u: _enum(v),
    "lazi_value": lambda v, u: u.amount(v),
    "ordinary_base": lambda v, u: u.amount(v),
    "ordinary_lazi_threshold": lambda v, u: u.amount_or_off(v, "not_used"),
    "fixed_values": _pattern_values(lambda n, u: f"= {n} {u.unit}"),
    "fan": _pattern_values(lambda n, u: f"{n} {term('fan')}"),
    "floor_patterns": lambda v, u: _patterns(v),
    "qualifying_patterns": lambda v, u: _patterns(v),
    "combine_fixed": lambda v, u: _enum(v),
    "fan_on_fixed": lambda v, u: _flag(v),
    "flower_values": lambda v, u: [f"{words(e['source'])} {e.get('value', 0)} {u.unit}" for e in v or ()],
    "huangfan_mode": lambda v, u: _enum(v),
    "huangfan_multiplier": lambda v, u: [f"×{v}"],
    "dice_huangfan": _dice_huangfan,
    "kaibao_throws": lambda v, u: ["  ".join(_throw(d) for d in v or ()) or term("none")],
    "kaibao_multiplier": lambda v, u: [f"×{v}"],
    "self_draw_share": lambda v, u: [_share(v)],
    "discard_share": lambda v, u: [_share(v)],
    "robbing_kong_share": lambda v, u: [_share(v)],
    "liability_mode": lambda v, u: _enum(v),
    "liability_threshold": lambda v, u: [f"{v} {TERMS['claims_from_one_seat'].en} {TERMS['claims_from_one_seat'].zh}"],
    "liability_discard_share": lambda v, u: [_share(v)],
    "liability_self_draw_share": lambda v, u: [_share(v)],
    "liability_robbing_kong_share": lambda v, u: [_share(v)],
    "sankou_self_draw_shares": _sankou_shares,
    "sankou_related_discarder_share": lambda v, u: [_share(v)],
    "sankou_related_seat_share": lambda v, u: [_share(v)],
    "abandon_penalty": lambda v, u: u.amount_or_off(v, "no_abandon_rule"),
}


def field_lines(profile: dict) -> list[str]:
    """Every field but the name, its label then its value; a list's further values under the first."""
    units = _Units(profile)
    lines = []
    for name, label in PROFILE_FIELD_WORDS.items():
        if name == "name":
            continue
        value = profile.get(_camel(name))
        said = _SAID.get(name, lambda v, u: [str(v if v is not None else 0)])(value, units)
        first, *more = said or [term("none")]
        lines.append(f"  {pad(f'{label.en} {label.zh}', LABEL_WIDTH)} {first}".rstrip())
        lines += [f"  {' ' * LABEL_WIDTH} {line}" for line in more]
    return lines


def profile_heading(summary: dict) -> list[str]:
    """``Profile 规则 lezi: description`` and where it comes from, with its digest."""
    name, description = summary.get("name", ""), summary.get("description", "")
    origin = f"{term('house')}, {term('base')} {summary['base']}" if summary.get("base") else term("built_in")
    return [
        f"{term('profile')} {name}  ({origin})" + (f"  {printable(description)}" if description else ""),
        f"  {pad(term('rules_digest'), LABEL_WIDTH)} {summary.get('digest', '')}",
    ]


def profile_table(answer: dict) -> str:
    """A GetProfile answer (``profile``, ``base``, ``description``, ``digest``)."""
    profile = answer.get("profile", {})
    summary = {**answer, "name": profile.get("name", "")}
    return "\n".join([*profile_heading(summary), *field_lines(profile)])


def profiles_table(answer: dict) -> str:
    """A ListProfiles answer: each profile's table, one after another."""
    summaries = {s.get("name", ""): s for s in answer.get("summaries", [])}
    tables = []
    for profile in answer.get("profiles", []):
        summary = summaries.get(profile.get("name", ""), {"name": profile.get("name", "")})
        tables.append("\n".join([*profile_heading(summary), *field_lines(profile)]))
    return "\n\n".join(tables)
