"""``GET /explorer/vocabulary.json``: the words the page shows, from their one source each.

- the meaning of every enum value and every ``RuleProfile`` field: the comments of the
  ``.proto`` files, read from the descriptor set ``make`` writes with source info
  (``shmj_descriptors.binpb`` beside the generated modules, package data of the wheel);
- the patterns' Chinese and English names: ``rules_core.patterns.PATTERN_NAMES``;
- every other enum value's and every profile field's Chinese and English label and Chinese
  meaning: ``rules_core.vocabulary``, the words the CLI prints too.
"""

from __future__ import annotations

import json
from pathlib import Path

from google.protobuf import descriptor_pb2
from mahjong.shanghai.v1 import tiles_pb2

from convert.json_names import PATTERN
from rules_core.patterns import PATTERN_NAMES
from rules_core.vocabulary import ENUM_WORDS, PROFILE_FIELD_WORDS, STATUS_WORDS, TERMS, Words

DESCRIPTORS = Path(tiles_pb2.__file__).with_name("shmj_descriptors.binpb")
# Source-info paths: FileDescriptorProto field 4 is message_type, 5 enum_type; within a
# message, 2 is field; within an enum, 2 is value.
_MESSAGE, _ENUM, _FIELD, _VALUE = 4, 5, 2, 2


def _comment(location) -> str:
    return " ".join(line.strip() for line in location.leading_comments.strip().splitlines())


def proto_comments(path: Path = DESCRIPTORS) -> dict:
    """``{"enums": {"OUTCOME_DISCARD": "...", ...}, "messages": {"RuleProfile": {"lazi_value": "..."}}}``."""
    files = descriptor_pb2.FileDescriptorSet.FromString(path.read_bytes()).file
    enums: dict[str, str] = {}
    messages: dict[str, dict[str, str]] = {}
    for file in files:
        comments = {tuple(loc.path): _comment(loc) for loc in file.source_code_info.location}
        for e, enum in enumerate(file.enum_type):
            for v, value in enumerate(enum.value):
                enums[value.name] = comments.get((_ENUM, e, _VALUE, v), "")
        for m, message in enumerate(file.message_type):
            messages[message.name] = {
                field.name: comments.get((_MESSAGE, m, _FIELD, f), "") for f, field in enumerate(message.field)
            }
    return {"enums": enums, "messages": messages}


def _entry(words: Words | None, meaning: str) -> dict:
    if words is None:
        return {"meaning": meaning}
    return {"zh": words.zh, "en": words.en, "zhMeaning": words.zh_meaning, "meaning": meaning}


def vocabulary() -> dict:
    """``enums`` and ``profileFields``: each name's ``zh`` and ``en`` label, ``zhMeaning`` and
    ``meaning`` (English); ``patterns``: each pattern's ``zh`` and ``en`` name; ``statuses``: each
    failed call's status code's ``zh`` and ``en`` words; ``terms``: the labels the CLI's tables
    print beside the numbers (``value_per_share``: 每份牌值 value per share V), the page's too."""
    comments = proto_comments()
    return {
        "enums": {name: _entry(ENUM_WORDS.get(name), meaning) for name, meaning in comments["enums"].items()},
        "profileFields": {
            name: _entry(PROFILE_FIELD_WORDS.get(name), meaning)
            for name, meaning in comments["messages"]["RuleProfile"].items()
        },
        "patterns": {PATTERN.name_of[p]: {"zh": zh, "en": en} for p, (zh, en) in PATTERN_NAMES.items()},
        "statuses": {code: {"zh": words.zh, "en": words.en} for code, words in STATUS_WORDS.items()},
        "terms": {key: {"zh": words.zh, "en": words.en} for key, words in TERMS.items()},
    }


def vocabulary_json() -> bytes:
    return json.dumps(vocabulary(), ensure_ascii=False).encode()
