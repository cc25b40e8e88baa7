"""docs/BATCH.md's schemas are the ones the code writes and reads: the Parquet parts' columns as
the page draws them (`name: type`, names sharing a type before it, `#` comments), and the columns
of the nested input form in the order the page names them."""

from __future__ import annotations

import re

import pyarrow as pa

from batch.arrow_schema import REQUEST_SCHEMA, RESULT_SCHEMA
from tests.server.conftest import ROOT

BATCH_MD = (ROOT / "docs/BATCH.md").read_text()


def _split(text: str) -> list[str]:
    """Comma-separated pieces of text at nesting depth 0."""
    pieces, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "," and depth == 0:
            pieces.append(text[start:i].strip())
            start = i + 1
    return [*pieces, text[start:].strip()]


def _drawn_type(text: str):
    text = text.strip()
    if text.startswith("list<"):
        return ("list", _drawn_type(text[5:-1]))
    if text.startswith("struct<"):
        return _drawn_fields(text[7:-1])
    return text


def _drawn_fields(text: str) -> list:
    fields, waiting = [], []
    for piece in _split(text):
        if ":" not in piece:
            waiting.append(piece)  # `kind, code, name_zh, name_en: string`
            continue
        name, drawn = piece.split(":", 1)
        fields += [(each, _drawn_type(drawn)) for each in (*waiting, name.strip())]
        waiting = []
    return fields


def _arrow_type(type_: pa.DataType):
    if pa.types.is_list(type_):
        return ("list", _arrow_type(type_.value_type))
    if pa.types.is_struct(type_):
        return [(field.name, _arrow_type(field.type)) for field in type_]
    return str(type_)


def test_the_parquet_parts_columns_are_the_result_schema():
    start = BATCH_MD.index("A Parquet part has\nthe columns of `SettleResponse`")
    (block,) = re.findall(r"```\n(.*?)```", BATCH_MD[start:], flags=re.S)[:1]
    drawn = " ".join(line.split("#")[0] for line in block.splitlines())
    assert _drawn_fields(drawn) == [(field.name, _arrow_type(field.type)) for field in RESULT_SCHEMA]


def test_the_nested_input_form_names_every_request_column():
    start = BATCH_MD.index("(`", BATCH_MD.index("1. **Nested**: the columns of `SettleRequest`"))
    listed = BATCH_MD[start : BATCH_MD.index(")", start)]
    assert re.findall(r"`(\w+)`", listed) == REQUEST_SCHEMA.names
