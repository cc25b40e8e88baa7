"""Shanghai Mahjong (上海麻将) rules: legality, itemised value, payments and the next hand.

A pure library: no gRPC, no I/O. The usual entry points:

- `settle(SettleRequest) -> SettleResult`
- `check_win(...)`, `list_waits(...)`
- `settle_record(SettleRecordRequest) -> RecordResult`: a hand record (牌谱) replayed and settled
- `advise(AdviseRequest) -> AdviceResult`: shanten and paths to a legal win, useful tiles, discards
- `review_record(SettleRecordRequest) -> ReviewResult`: each discard of a record against that advice
- `settle_json(dict) -> dict`, `settle_record_json(dict) -> dict`, `list_waits_json(dict) -> dict`,
  `advise_json(dict) -> dict` and `review_record_json(dict) -> dict`, in the proto3 JSON mapping of API.md: the wire layer's (`convert.json_api`), imported on first use
- `parse_hand("123m 456p EEE 77s [555p@1] 1f 5f")` for the notation of RULES.md

The hot path runs compiled with mypyc where `make install` could build it
(`rules_core.compiled.BUILD` says which; ``SHMJ_PURE_PYTHON=1`` forces the source).
"""

from rules_core.compiled import BUILD  # first: it decides where the hot-path modules come from

# isort: split
from rules_core.advice import advise
from rules_core.advice_values import (
    AdviceResult,
    AdviceWait,
    AdviseRequest,
    DiscardOption,
    DiscardReview,
    Path,
    ReviewResult,
    SeatReview,
    Suit,
    UsefulTile,
)
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.errors import FieldViolation, InvalidRequest, NotationError, ProfileDigestMismatch
from rules_core.notation import format_hand, parse_flowers, parse_hand, parse_tile, parse_tiles
from rules_core.patterns import IllegalReason, Pattern
from rules_core.profile import CombineFixed, FlowerSource, HuangfanMode, LiabilityMode, RuleProfile, Unit
from rules_core.records import EventKind, HandEvent, Pass, RecordResult, SettleRecordRequest
from rules_core.replay import settle_record
from rules_core.requests import (
    CheckWinRequest,
    Dice,
    Hand,
    LiabilityRelation,
    ListWaitsRequest,
    Meld,
    MeldKind,
    Outcome,
    SettleRequest,
    Winner,
)
from rules_core.results import (
    ItemKind,
    NextHand,
    Payment,
    PaymentReason,
    Penalty,
    PenaltyReason,
    SettleResult,
    ValueItem,
    WinnerResult,
)
from rules_core.review import review_record
from rules_core.settle import settle
from rules_core.tiles import Flower, Tile
from rules_core.version import ENGINE_VERSION
from rules_core.waits import Wait, Waits, check_win, list_waits

__all__ = [
    "BUILD",
    "AdviceResult",
    "AdviceWait",
    "AdviseRequest",
    "DiscardOption",
    "DiscardReview",
    "Path",
    "ReviewResult",
    "SeatReview",
    "Suit",
    "UsefulTile",
    "advise",
    "review_record",
    "BUILTIN_PROFILES",
    "ENGINE_VERSION",
    "CheckWinRequest",
    "CombineFixed",
    "Dice",
    "EventKind",
    "FieldViolation",
    "Flower",
    "FlowerSource",
    "Hand",
    "HandEvent",
    "HuangfanMode",
    "IllegalReason",
    "InvalidRequest",
    "ProfileDigestMismatch",
    "ItemKind",
    "LiabilityMode",
    "LiabilityRelation",
    "ListWaitsRequest",
    "Meld",
    "MeldKind",
    "NextHand",
    "NotationError",
    "Outcome",
    "Pass",
    "Pattern",
    "Payment",
    "PaymentReason",
    "Penalty",
    "PenaltyReason",
    "RecordResult",
    "RuleProfile",
    "SettleRecordRequest",
    "SettleRequest",
    "SettleResult",
    "Tile",
    "Unit",
    "ValueItem",
    "Wait",
    "Waits",
    "Winner",
    "WinnerResult",
    "check_win",
    "format_hand",
    "list_waits",
    "list_waits_json",
    "parse_flowers",
    "parse_hand",
    "parse_tile",
    "parse_tiles",
    "settle",
    "settle_json",
    "settle_record",
    "settle_record_json",
    "advise_json",
    "review_record_json",
]

# The JSON entry points live in the wire layer, which imports this package: they are looked up
# on first use (the one import of rules_core that the layering contract ignores).
_WIRE_ENTRY_POINTS = ("advise_json", "list_waits_json", "review_record_json", "settle_json", "settle_record_json")


def __getattr__(name: str):
    if name in _WIRE_ENTRY_POINTS:
        from convert import json_api

        return getattr(json_api, name)
    raise AttributeError(f"module 'rules_core' has no attribute {name!r}")
