"""The fields of RULES.md section 14 at their defaults change no answer of today's profiles.

On the generated requests of `generators.random_hands` (every profile and outcome, legal,
illegal and malformed), the answers equal those the engine gave before the fields existed
(recorded from it: the SHA-256 of the answers' text, per seed). And the shortcut that leaves the
chow readings of an all-pungs hand unvalued answers as valuing every reading.
"""

from __future__ import annotations

import hashlib

import pytest

from convert.profile_digest import BUILTIN_REGISTRY as DIGESTED
from generators.random_hands import generate_requests
from rules_core import InvalidRequest, settle
from rules_core.builtin_profiles import BUILTIN_PROFILES
from rules_core.legality import judge, pungs_reading_always_best
from rules_core.requests import replace
from rules_core.validation import validate_settle

# sha256 of the answers (repr of the SettleResult, or the violations) to 3,000 generated requests
# per seed, recorded from the engine before section 14's fields were added.
ANSWERS_BEFORE = {
    1: "7bb952f5257f82990afc8b2cfa646b8d06e406aaa17a4b6f1b37f470a6d81709",
    2: "07a771f29ce00a6005333bc2b6bbc39383802c547ca2e84e55ebf60f803efbe7",
    3: "fb5e7f8a60c71423048993c92603f5fc46a0ecfb5878533d90d32515462dcb3f",
}


def answer(request) -> str:
    try:
        return repr(settle(request, DIGESTED))  # recorded with the profile digest in each answer
    except InvalidRequest as error:
        return "invalid " + repr(sorted((v.field, v.description) for v in error.violations))


@pytest.mark.parametrize("seed", sorted(ANSWERS_BEFORE))
def test_every_answer_is_the_one_before_the_new_fields(seed):
    digest = hashlib.sha256()
    for request in generate_requests(3000, seed):
        digest.update(answer(request).encode())
    assert digest.hexdigest() == ANSWERS_BEFORE[seed]


@pytest.mark.parametrize("name", ["qiaoma", "qiaoma_lezi", "qinghunpeng"])
def test_the_all_pungs_shortcut_of_the_new_profiles_answers_as_valuing_every_reading(name):
    assert pungs_reading_always_best(BUILTIN_PROFILES[name])
    compared = 0
    for request in generate_requests(3000, 11):
        request = replace(request, profile=name, declared_seats=(0, 1, 2))
        try:
            profile, counts = validate_settle(request)
        except InvalidRequest:
            continue
        for winner, winner_counts in zip(request.winners, counts, strict=True):
            args = (profile, request.outcome, request.dealer_seat, winner, winner_counts, winner.seat < 3)
            shortcut = judge(*args)
            assert shortcut == judge(*args, True), request
            compared += not shortcut[1]
    assert compared > 300
