"""``shmj profiles`` as a person reads it: each profile's fields under their labels of
`rules_core.vocabulary` in English and Chinese, every value with its unit (``10 分``,
``3 × V 份``, ``×2``) and every enum value in words; ``--json`` prints the answer as it came.
"""

from __future__ import annotations

from clients.report import pad, printable
from rules_core.profile_words import field_values
from rules_core.vocabulary import PROFILE_FIELD_WORDS, term

LABEL_WIDTH = 46  # terminal columns of the label column (display width: 单位 takes four)


def field_lines(profile: dict) -> list[str]:
    """Every field but the name, its label then its value; a list's further values under the first."""
    lines = []
    for name, said in field_values(profile).items():
        label = PROFILE_FIELD_WORDS[name]
        first, *more = said
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
