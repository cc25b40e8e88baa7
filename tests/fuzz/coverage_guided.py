"""Coverage-guided fuzzing (atheris, over libFuzzer) of the readers of untrusted text: the tile
notation (`rules_core.notation`), JSON requests (`convert.json_text` then `convert.json_read`,
as the server reads a JSON body and `shmj rescore` a batch line) and house profile files
(`profile_files.parse`, then `convert.house_profiles`).

    python -m tests.fuzz.coverage_guided notation -max_total_time=60
    python -m tests.fuzz.coverage_guided json -max_total_time=60
    python -m tests.fuzz.coverage_guided profile -max_total_time=60

Anything but a clean answer or the reader's own error (NotationError, InvalidRequest, a
problem) is a crash that libFuzzer reports with the input that caused it; so is one input taking
over ``-timeout`` seconds. The notation target also checks that what parses formats back to
text that parses to the same hand. The JSON and profile corpora start with hostile texts too
(`tests.fuzz.hostile_text`).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["convert", "rules_core", "profile_files"]):
    from rules_core.errors import NotationError
    from rules_core.notation import format_hand, parse_flowers, parse_hand, parse_tiles
    from tests.fuzz.hostile_text import HOSTILE_JSON, HOSTILE_PROFILES, json_request, profile_file


def notation(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    for parse in (parse_tiles, parse_flowers):
        try:
            parse(text)
        except NotationError:
            pass
    try:
        hand = parse_hand(text)
    except NotationError:
        return
    again = parse_hand(format_hand(hand.concealed, hand.melds, hand.flowers))
    if _canonical(again) != _canonical(hand):
        raise AssertionError(f"{text!r} reads back as a different hand")


def _canonical(hand):
    """A hand up to the order of tiles (the notation's formatter sorts them; validation, not the
    parser, judges whether a meld's tiles fit its kind)."""
    melds = [(m.kind, sorted(m.tiles), m.from_seat) for m in hand.melds]
    return sorted(hand.concealed), melds, sorted(hand.flowers)


def _seeds(target: str) -> list[bytes]:
    """Valid inputs to start from: realistic hands and requests of the seeded generator."""
    from google.protobuf.json_format import MessageToJson

    import convert
    from generators.random_hands import HandGenerator
    from tests.fuzz.seeds import Seeds

    requests = [HandGenerator(1).request(i) for i in range(40)]
    if target == "notation":
        return [
            format_hand(w.hand.concealed, w.hand.melds, w.hand.flowers).encode() for r in requests for w in r.winners
        ]
    if target == "profile":
        examples = Path(__file__).resolve().parents[2] / "examples" / "profiles"
        return [path.read_bytes() for path in sorted(examples.iterdir())] + HOSTILE_PROFILES
    seeds = Seeds.make(1, size=20)
    messages = [convert.settle_request_message(r) for r in requests] + seeds.by_rpc["ListWaits"]
    return [MessageToJson(m, indent=None).encode() for m in messages] + HOSTILE_JSON


def _dictionary(target: str) -> list[str]:
    """The words of the input language, for libFuzzer's -dict."""
    if target == "notation":
        return ["[", "]", "@", "+", "m", "p", "s", "f", *"ESWNCFP", "123", "5555", "@0", "@3"]
    if target == "profile":
        return [
            "name: ",
            "base: ",
            "overrides:",
            "  ",
            "- ",
            "&a",
            "*a",
            "<<: ",
            "!!int ",
            "0x",
            ":",
            "classic",
            "lezi",
        ]
    from tests.fuzz.seeds import REQUEST_TYPES

    words = {"{", "}", "[", "]", ":", ",", "null", "true", "false", "-1", "2147483648", "1e999", '"NaN"'}

    def walk(descriptor, seen):
        if descriptor.full_name in seen:
            return
        seen.add(descriptor.full_name)
        for field in descriptor.fields:
            words.update((f'"{field.name}"', f'"{field.json_name}"'))
            if field.enum_type is not None:
                words.update(f'"{value.name}"' for value in field.enum_type.values)
            if field.message_type is not None:
                walk(field.message_type, seen)

    seen: set[str] = set()
    for rpc in ("Settle", "ListWaits"):
        walk(REQUEST_TYPES[rpc].DESCRIPTOR, seen)
    return sorted(words)


TARGETS = {"notation": notation, "json": json_request, "profile": profile_file}


def main(argv: list[str]) -> None:
    if len(argv) < 2 or argv[1] not in TARGETS:
        print(f"usage: python -m tests.fuzz.coverage_guided {{{','.join(TARGETS)}}} [libFuzzer flags]", file=sys.stderr)
        raise SystemExit(2)
    name = argv[1]
    run(name, TARGETS[name], _seeds(name), _dictionary(name), argv)


def run(name: str, target, seeds: list[bytes], words: list[str], argv: list[str], corpus: Path | None = None) -> None:
    """Fuzz ``target`` from a corpus of ``seeds`` with the dictionary ``words``; ``argv[2:]``
    are libFuzzer's flags. The corpus grows in ``corpus`` where given, else in a folder dropped
    at the end."""
    with tempfile.TemporaryDirectory(prefix=f"shmj-atheris-{name}-") as work:
        if corpus is None:
            corpus = Path(work, "corpus")
        corpus.mkdir(parents=True, exist_ok=True)
        for index, seed in enumerate(seeds):
            (corpus / f"seed-{index}").write_bytes(seed)
        dictionary = Path(work, "dict")
        dictionary.write_text("".join(f"{json.dumps(word)}\n" for word in words))
        atheris.Setup([argv[0], f"-dict={dictionary}", *argv[2:], str(corpus)], target)
        atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
