"""The docs' Spark example for real (docs/BATCH.md, "The Arrow core from Spark"): a local
Spark (PySpark from requirements-spark.txt, the machine's Java 17) runs ``mapInArrow`` with
``settle_arrow_batches`` over both input forms, nested Parquet and a JSON string column, and
settles every hand as ``shmj rescore --local`` does."""

from __future__ import annotations

import json
import os
import sys

import pytest
from google.protobuf.json_format import ParseDict
from mahjong.shanghai.v1 import settlement_pb2 as pb

from batch.arrow_schema import RESULT, RESULT_SCHEMA, json_record
from clients.cli import main
from tests.server.conftest import ROOT

EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def spark():
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the executors' Python: this venv, where batch is
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[1]")
        .appName("shmj-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate()
    )
    yield session
    session.stop()


def local_answers(tmp_path) -> dict[str, pb.SettleResponse]:
    out = tmp_path / "local.jsonl"
    assert main(["rescore", str(EXAMPLES / "hands.jsonl"), "-o", str(out), "--local", "--no-progress"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return {r["requestId"]: ParseDict(json_record(r, RESULT), pb.SettleResponse()) for r in records}


def test_map_in_arrow_settles_as_local_rescore_does(spark, tmp_path):
    from pyspark.sql.pandas.types import from_arrow_schema

    from batch.arrow import settle_arrow_batches  # the docs' import, run on Spark's executors

    expected = local_answers(tmp_path)
    nested = spark.read.parquet(str(EXAMPLES / "hands.parquet"))
    lines = spark.read.text(str(EXAMPLES / "hands.jsonl"))  # one string column, "value"
    for hands in (nested, lines):
        results = hands.mapInArrow(settle_arrow_batches, from_arrow_schema(RESULT_SCHEMA))
        rows = results.toArrow().to_pylist()
        answers = {row["request_id"]: ParseDict(json_record(row, RESULT), pb.SettleResponse()) for row in rows}
        assert len(rows) == len(expected) == 35
        assert answers == expected
    assert expected["ex-1"].seat_deltas == [36.0, -12.0, -12.0, -12.0]
    assert expected["abandon-classic"].error.field_violations[0].field == "outcome"
