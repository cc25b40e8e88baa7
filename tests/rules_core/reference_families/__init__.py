"""An independent reference of RULES.md section 14 (`qiaoma`, `qiaoma_lezi`, `qinghunpeng`),
written from the specification alone, for the differential test of the engine.

It reads a `SettleRequest` in the proto3 JSON mapping of API.md and answers a `SettleResponse`
dict in the same mapping (winners, payments, seat deltas, next hand), so that the engine's
`settle_json` and this reference see the same bytes. It is plain and slow on purpose: every
reading of a hand is enumerated and judged, and the best is taken as RULES.md section 4 says.
It imports nothing from `rules_core`.
"""

from tests.rules_core.reference_families.settle import reference_settle

__all__ = ["reference_settle"]
