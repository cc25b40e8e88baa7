"""An independent implementation of RULES.md section 15 (advice and record review), written from
the rules without the engine's advice, distance or legality code, to hold `advise_json` and
`review_record_json` to. Under `classic`, `sankou` and `lezi` it reads sections 4 and 15 itself
and values waits with the engine's `settle_json`; under the profiles of section 14 (families.py)
it reads sections 14 and 15, and takes the profiles and wait values from the independent
section 14 reference of tests/rules_core/reference_families."""

from .advice import advise
from .review import review

__all__ = ["advise", "review"]
