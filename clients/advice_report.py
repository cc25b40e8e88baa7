"""Advice and review as a person reads them (``shmj advise``, ``shmj review``), from the proto3
JSON of AdviseResponse and ReviewRecordResponse (RULES.md section 15): every label in English and
Chinese from `rules_core.vocabulary`, tiles in the notation of RULES.md section 2."""

from __future__ import annotations

from clients.report import display_width, pad, pattern_label, printable, tile_label
from rules_core.vocabulary import ENUM_WORDS, term


def _number(value: float) -> str:
    return f"{value:g}"


def shanten_said(shanten: int) -> str:
    """``0 (ready 听牌)``: the number, and what -1 and 0 mean."""
    meaning = {-1: term("a_legal_win"), 0: term("ready")}.get(shanten)
    return f"{shanten} ({meaning})" if meaning else str(shanten)


def path_label(path: dict) -> str:
    """``Full flush 清一色 dots 筒``; the path ORDINARY as ``Ordinary hand 垃圾胡``."""
    pattern = path.get("pattern", "PATTERN_UNSPECIFIED")
    said = term("ordinary_path") if pattern == "PATTERN_UNSPECIFIED" else pattern_label(pattern)
    suit = ENUM_WORDS.get(path.get("suit", ""))
    return f"{said} {suit.en} {suit.zh}" if suit else said


def useful_said(useful: list[dict]) -> str:
    """``7s 2, C 2``: each useful tile with its live count; ``none 无`` for none."""
    return ", ".join(f"{tile_label(u['tile'])} {u.get('live', 0)}" for u in useful) or term("none")


def waits_said(waits: list[dict], live_value: float) -> str:
    """``7s 2 × V 6, C 2 × V 10 (live value 剩余价值 32)``."""
    each = ", ".join(f"{tile_label(w['tile'])} {w.get('live', 0)} × V {_number(w.get('value', 0.0))}" for w in waits)
    return f"{each} ({term('live_value')} {_number(live_value)})"


def _paths_lines(paths: list[dict]) -> list[str]:
    labels = [path_label(p) for p in paths]
    width = max(map(display_width, labels), default=0) + 2
    return [f"  {pad(label, width)}{p.get('shanten', 0)}" for label, p in zip(labels, paths, strict=True)]


def _option_lines(options: list[dict]) -> list[str]:
    headings = (term("discard_tile"), term("shanten_after"), term("total"), f"{term('useful_tiles')} ({term('live')})")
    rows = [
        (
            tile_label(o["tile"]) + (f"  {term('best')}" if o.get("best") else ""),
            str(o.get("shanten", 0)),
            str(o.get("liveTotal", 0)),
            useful_said(o.get("useful", [])),
        )
        for o in options
    ]
    widths = [max(display_width(h), *(display_width(r[i]) for r in rows)) + 2 for i, h in enumerate(headings[:3])]

    def line(cells) -> str:
        return "  " + "".join(pad(c, w) for c, w in zip(cells, widths, strict=False)) + cells[3]

    lines = [line(headings)]
    for row, option in zip(rows, options, strict=True):
        lines.append(line(row))
        if option.get("waits"):
            lines.append(f"      {term('waits')}: {waits_said(option['waits'], option.get('liveValue', 0.0))}")
    return lines


def advice_table(response: dict) -> str:
    """A holding's shanten, its paths and, for 13 tiles, its useful tiles and waits; for 14, its
    discard options in order."""
    head = f"  {term('request')} {printable(response['requestId'])}" if response.get("requestId") else ""
    if not response.get("reachable"):
        return f"{term('shanten')}: {term('dead_holding')}, {term('no_path')}{head}"
    lines = [f"{term('shanten')}: {shanten_said(response.get('shanten', 0))}{head}", f"{term('paths')}:"]
    lines += _paths_lines(response.get("paths", []))
    options = response.get("options", [])
    if options:
        lines += _option_lines(options)
        return "\n".join(lines)
    lines.append(
        f"{term('useful_tiles')} ({term('live')}): {useful_said(response.get('useful', []))}"
        f"  ({term('total')} {response.get('liveTotal', 0)})"
    )
    if response.get("waits"):
        lines.append(f"{term('waits')}: {waits_said(response['waits'], response.get('liveValue', 0.0))}")
    return "\n".join(lines)


def _seat_line(seat: dict) -> str:
    counts = (
        ("discards_made", "discards"),
        ("among_the_best", "agreements"),
        ("backward", "backward"),
        ("forced_discards", "forcedDiscards"),
        ("dead_discards", "deadDiscards"),
    )
    said = "  ".join(f"{term(label)} {seat.get(key, 0)}" for label, key in counts)
    passes = ", ".join(f"{tile_label(p['tile'])} @{p.get('eventIndex', 0)}" for p in seat.get("passes", []))
    return f"{term('seat')} {seat.get('seat', 0)}  {said}  {term('passes')} {passes or term('none')}"


def _discard_line(review: dict) -> str:
    chosen = review.get("chosen", {})
    said = f"{term('shanten_after')} {chosen.get('shanten', 0)}, {term('total')} {chosen.get('liveTotal', 0)}"
    if chosen.get("waits"):
        said += f", {term('live_value')} {_number(chosen.get('liveValue', 0.0))}"
    best = " ".join(tile_label(t) for t in review.get("bestTiles", []))
    backward = f"  {term('backward')}" if review.get("backward") else ""
    return (
        f"  {term('at_event')} {review.get('eventIndex', 0)}  {term('seat')} {review.get('seat', 0)}:"
        f" {tile_label(review['discarded'])} ({said}){backward}; {term('best_instead')} {best}"
    )


def review_table(response: dict) -> str:
    """Each seat's summary, then every discard that was not among the best (a dead or forced one
    is no choice, and is only counted) with the best tiles instead."""
    lines = [_seat_line(s) for s in response.get("seats", [])]
    missed = [
        d for d in response.get("discards", []) if d.get("reachable") and not d.get("forced") and not d.get("agrees")
    ]
    lines.append(f"{term('not_among_the_best')}:")
    lines += [_discard_line(d) for d in missed] or [f"  {term('all_among_the_best')}"]
    return "\n".join(lines)
