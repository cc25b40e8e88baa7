"""One vocabulary, both languages: every value a person reads has its Chinese and English words."""

from __future__ import annotations

from mahjong.shanghai.v1 import advice_pb2, patterns_pb2, profile_pb2, settlement_pb2, tiles_pb2

from rules_core.vocabulary import ENUM_WORDS, PROFILE_FIELD_WORDS, TERMS, label, term

# The enums whose values a settlement, a winner or a profile shows (patterns, tiles and
# flowers have their names in rules_core.patterns and rules_core.tiles).
SHOWN_ENUMS = [
    settlement_pb2.Outcome,
    patterns_pb2.IllegalReason,
    settlement_pb2.ItemKind,
    settlement_pb2.PaymentReason,
    settlement_pb2.PenaltyReason,
    profile_pb2.Unit,
    profile_pb2.CombineFixed,
    profile_pb2.HuangfanMode,
    profile_pb2.LiabilityMode,
    profile_pb2.FlowerSource,
    tiles_pb2.MeldKind,
    advice_pb2.Suit,
]


def test_every_shown_enum_value_has_words_in_both_languages():
    names = [name for enum in SHOWN_ENUMS for name in enum.keys() if not name.endswith("_UNSPECIFIED")]
    assert sorted(ENUM_WORDS) == sorted(names)
    for name in names:
        words = ENUM_WORDS[name]
        assert words.zh and words.en and words.zh_meaning, name
        assert not words.en.isupper(), name  # a word, not an enum name


def test_every_profile_field_has_words():
    assert list(PROFILE_FIELD_WORDS) == [f.name for f in profile_pb2.RuleProfile.DESCRIPTOR.fields]
    assert all(w.zh and w.en and w.zh_meaning for w in PROFILE_FIELD_WORDS.values())


def test_a_label_reads_chinese_then_english():
    assert label("PAYMENT_REASON_LIABILITY") == "承包 liability"
    assert label("ILLEGAL_REASON_NO_QUALIFYING_PATTERN") == "无可胡番型 no qualifying pattern"
    assert label("SOMETHING_NEW") == "SOMETHING_NEW"


def test_every_term_has_both_languages_and_reads_english_then_chinese():
    assert all(t.zh and t.en and "_" not in t.en for t in TERMS.values())  # words, not enum names
    assert term("payments") == "Payments 付款"
    assert term("seat_deltas") == "Seat deltas 输赢"


def test_the_values_and_fields_of_section_14_have_words_in_both_languages():
    from rules_core.patterns import IllegalReason
    from rules_core.profile import FAMILY_FIELDS, LiabilityMode
    from rules_core.records import EventKind
    from rules_core.vocabulary import FAMILY_ENUM_WORDS, FAMILY_PROFILE_FIELD_WORDS

    new_values = [f"ILLEGAL_REASON_{r.name}" for r in IllegalReason if r >= IllegalReason.NO_FLOWERS_SELF_DRAW_ONLY]
    new_values += [f"LIABILITY_MODE_{m.name}" for m in (LiabilityMode.BAOSANKOU, LiabilityMode.CONTRACT)]
    new_values += [f"EVENT_KIND_{EventKind.DECLARE.name}"]
    assert sorted(FAMILY_ENUM_WORDS) == sorted(new_values)
    assert sorted(FAMILY_PROFILE_FIELD_WORDS) == sorted(FAMILY_FIELDS)
    for words in (*FAMILY_ENUM_WORDS.values(), *FAMILY_PROFILE_FIELD_WORDS.values()):
        assert words.zh and words.en and words.zh_meaning and not words.en.isupper()
    assert label("ILLEGAL_REASON_NOT_DECLARED") == "未敲 not knocked"
