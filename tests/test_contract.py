"""The wire contract: API.md's binding names, buf lint and breaking checks, fresh generated code."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mahjong.shanghai.v1 import patterns_pb2, profile_pb2, scoring_service_pb2, settlement_pb2, tiles_pb2

ROOT = Path(__file__).resolve().parents[1]
BUF = Path(sys.executable).parent / "buf"

# Every message and field name API.md binds.
BINDING_FIELDS = {
    tiles_pb2.Meld: {"kind", "tiles", "from_seat"},
    tiles_pb2.Hand: {"concealed", "winning_tile", "melds", "flowers"},
    profile_pb2.Dice: {"first", "second"},
    settlement_pb2.LiabilityRelation: {"claimer_seat", "source_seat", "claims"},
    settlement_pb2.Winner: {"seat", "hand", "passed_tiles", "replacement_draw", "first_go_around"},
    settlement_pb2.SettleRequest: {
        "request_id",
        "profile",
        "overrides",
        "dealer_seat",
        "dice",
        "huangfan_count",
        "outcome",
        "discarder_seat",
        "winners",
        "liabilities",
        "abandoning_seat",
    },
    settlement_pb2.WinnerResult: {
        "seat",
        "legal",
        "illegal_reasons",
        "patterns",
        "flowers",
        "items",
        "base_value",
        "value",
    },
    settlement_pb2.Payment: {"from_seat", "to_seat", "amount", "reason"},
    settlement_pb2.NextHand: {"dealer_seat", "huangfan_count"},
    settlement_pb2.SettleResponse: {
        "request_id",
        "profile",
        "unit",
        "winners",
        "payments",
        "seat_deltas",
        "next_hand",
    },
    scoring_service_pb2.SettleBatchRequest: {"requests"},
    scoring_service_pb2.SettleBatchResponse: {"results"},
}
RULES_SECTION_11_FIELDS = {
    "qualifying_patterns",
    "combine_fixed",
    "fan_on_fixed",
    "ordinary_lazi_threshold",
    "huangfan_mode",
    "kaibao_throws",
    "liability_mode",
    "liability_threshold",
}


@pytest.mark.parametrize("message", list(BINDING_FIELDS), ids=lambda m: m.DESCRIPTOR.name)
def test_binding_field_names(message):
    assert BINDING_FIELDS[message] <= set(message.DESCRIPTOR.fields_by_name)
    assert message.DESCRIPTOR.file.package == "mahjong.shanghai.v1"


def test_rule_profile_names_every_reading_of_section_11():
    assert RULES_SECTION_11_FIELDS <= set(profile_pb2.RuleProfile.DESCRIPTOR.fields_by_name)


def test_enums_follow_api_md():
    tiles = tiles_pb2.Tile.keys()
    assert (
        tiles[0] == "TILE_UNSPECIFIED"
        and tiles[1] == "TILE_M1"
        and tiles[-7:]
        == [
            "TILE_EAST",
            "TILE_SOUTH",
            "TILE_WEST",
            "TILE_NORTH",
            "TILE_RED",
            "TILE_GREEN",
            "TILE_WHITE",
        ]
    )
    assert tiles_pb2.Flower.keys()[1:] == [
        "FLOWER_SPRING",
        "FLOWER_SUMMER",
        "FLOWER_AUTUMN",
        "FLOWER_WINTER",
        "FLOWER_PLUM",
        "FLOWER_ORCHID",
        "FLOWER_BAMBOO",
        "FLOWER_CHRYSANTHEMUM",
    ]
    assert settlement_pb2.Outcome.keys() == [
        "OUTCOME_UNSPECIFIED",
        "OUTCOME_SELF_DRAW",
        "OUTCOME_DISCARD",
        "OUTCOME_ROBBING_KONG",
        "OUTCOME_EIGHT_FLOWERS",
        "OUTCOME_EXHAUSTIVE_DRAW",
        "OUTCOME_ABANDON",
    ]
    assert {
        "ILLEGAL_REASON_INCOMPLETE_SHAPE",
        "ILLEGAL_REASON_NO_QUALIFYING_PATTERN",
        "ILLEGAL_REASON_MISSED_WIN",
    } <= set(patterns_pb2.IllegalReason.keys())


def test_service_has_every_rpc_of_api_md():
    service = scoring_service_pb2.DESCRIPTOR.services_by_name["ScoringService"]
    assert set(service.methods_by_name) == {
        "Settle",
        "SettleBatch",
        "SettleStream",
        "CheckWin",
        "ListWaits",
        "GetProfile",
        "ListProfiles",
    }
    stream = service.methods_by_name["SettleStream"]
    assert stream.input_type.name == "SettleRequest" and stream.output_type.name == "SettleResponse"
    assert stream.client_streaming and stream.server_streaming


def test_buf_lint():
    result = subprocess.run([BUF, "lint"], cwd=ROOT / "proto", capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_buf_breaking_against_main():
    has_main = subprocess.run(["git", "rev-parse", "--verify", "main"], cwd=ROOT, capture_output=True)
    if has_main.returncode:
        pytest.skip("no main branch in this checkout to compare with")
    result = subprocess.run(
        [BUF, "breaking", "--against", f"{ROOT}/.git#branch=main,subdir=proto"],
        cwd=ROOT / "proto",
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_code_is_fresh(tmp_path):
    protos = sorted(str(p.relative_to(ROOT / "proto")) for p in (ROOT / "proto").rglob("*.proto"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            "-I",
            "proto",
            f"--python_out={tmp_path}",
            f"--grpc_python_out={tmp_path}",
            *protos,
        ],
        cwd=ROOT,
        check=True,
    )
    fresh = tmp_path / "mahjong/shanghai/v1"
    generated = ROOT / "gen/mahjong/shanghai/v1"
    names = sorted(p.name for p in fresh.glob("*.py"))
    match, mismatch, errors = filecmp.cmpfiles(fresh, generated, names, shallow=False)
    assert not mismatch and not errors, f"stale generated code: {mismatch + errors}; run make gen"
    shutil.rmtree(tmp_path / "mahjong")
