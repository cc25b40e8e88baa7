"""rules_core's own rate of settling, which every batch path is measured against: SettleBatch
per worker (`bench/service_bench.py`'s ceiling) and a batch record (`bench/batch_bench.py`)."""

from __future__ import annotations

import gc
import time

import rules_core as rc
from convert.profile_digest import BUILTIN_REGISTRY


def settle_rate(requests: list, passes: int = 1) -> float:
    """Settlements per CPU-second of this process, best of ``passes`` passes of rules_core's
    ``settle`` over ``requests`` under the wire layer's registry (the answers carry the profile
    digest, as every batch answer does), core values read already; a malformed one raises, as it does
    in a batch, and counts. What the caller built before is frozen for the collector
    (``gc.freeze``), as a server worker freezes what it built before serving: the collector's
    walks over the caller's data are not the engine's cost."""
    gc.collect()
    gc.freeze()
    try:
        best = 0.0
        for _ in range(passes):
            start = time.process_time()
            for request in requests:
                try:
                    rc.settle(request, BUILTIN_REGISTRY)
                except rc.InvalidRequest:
                    pass
            best = max(best, len(requests) / (time.process_time() - start))
        return best
    finally:
        gc.unfreeze()
