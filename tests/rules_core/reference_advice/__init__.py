"""An independent implementation of RULES.md section 15 (advice and record review), written from
the rules without the engine's advice code, to hold `advise_json` and `review_record_json` to."""

from .advice import advise
from .review import review

__all__ = ["advise", "review"]
