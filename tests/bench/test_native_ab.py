"""`bench.native_ab` (docs/DEVELOPING.md shows its figures): every variant of each batch path
answers the same bytes, and each variant's CPU per record and its ratios are reported."""

from __future__ import annotations

from batch import native
from bench.native_ab import VARIANTS, generated, measure, present, requests_of


def test_each_variant_of_each_path_is_measured_with_its_ratios():
    report = measure(count=120, runs=1, seed=3)  # raises where a variant answers otherwise
    variants = [f"{form}: {variant}" for form in ("jsonl", "arrow") for variant in VARIANTS[form]]
    assert list(report["cpu_us_per_record_median"]) == ["engine", *variants]
    assert set(report["ratio_median_of_runs"]) == {f"{name} / engine" for name in variants} | {
        f"{name} / native" for name in variants if not name.endswith(": native")
    }
    assert report["modules_loaded"] == {
        name: present(name) and native.load(name) is not None
        for name in ("json_request", "json_answer", "arrow_requests", "arrow_results")
    }


def test_a_module_gone_from_the_tree_has_no_variant():
    assert not present("arrow_requests")
    assert list(VARIANTS["arrow"]) == ["native", "arrow_results off"]
    assert list(VARIANTS["jsonl"]) == ["native", "json_request off", "json_answer off", "both off"]


def test_every_field_writes_the_same_requests_with_their_defaults_printed():
    """``--every-field``: the records as this product writes JSON, each field at its default too."""
    sparse, sparse_batches = generated(60, seed=3)
    every, every_batches = generated(60, seed=3, every_field=True)
    assert all(len(a) > len(b) for a, b in zip(every, sparse, strict=True) if b"bad-" not in b)
    assert requests_of(every) == requests_of(sparse)
    assert [b.to_pylist() for b in every_batches] == [b.to_pylist() for b in sparse_batches]
    assert measure(count=60, runs=1, seed=3, every_field=True)["every_field"] is True
