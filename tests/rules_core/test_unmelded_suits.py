"""RULES.md 15.3: the table `make` builds of every suit no meld holds a tile of answers as the search does.

Each suit of 0-4 of each tile, at most 14 in all, has one place in the table (its rank); its
record holds the search's answer exactly. Without a current table file (a tree not built with
`make`, or a file written by another search) the search answers alone, with the same answers.
"""

from __future__ import annotations

import random
import struct

import pytest

from rules_core import target_parts, unmelded_suits
from rules_core.target_parts import NO_TARGET, SLOTS
from rules_core.unmelded_suits_build import witnesses


def searched(part: list[int]) -> tuple[list[int], list[int], list[int], list[int]]:
    mixed, mixed_useful = target_parts._search(part, [4] * 9, True)
    pungs, pungs_useful = target_parts._search(part, [4] * 9, False)
    return mixed, pungs, mixed_useful, pungs_useful


def some_suits(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    suits = [[0] * 9, [4, 4, 4, 2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2, 4, 4, 4], [1, 1, 1, 1, 1, 1, 1, 1, 4]]
    while len(suits) < count:
        part = [rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(9)]
        if sum(part) <= 14:
            suits.append(part)
    return suits


def test_every_suit_has_its_own_place_in_the_table():
    places = sorted(unmelded_suits.rank(counts, 0) for counts in unmelded_suits.every_suit())
    assert unmelded_suits.SUITS == 405_350
    assert places == list(range(405_350))


def test_a_suit_is_ranked_wherever_it_sits_in_the_counts():
    counts = [0] * 9 + [2, 0, 1, 0, 0, 0, 0, 3, 4] + [0] * 16
    assert unmelded_suits.rank(counts, 9) == unmelded_suits.rank(counts[9:18], 0)
    assert unmelded_suits.rank([0] * 9, 0) == 0
    assert unmelded_suits.rank([0] * 8 + [1], 0) == 1
    assert unmelded_suits.rank([4, 4, 4, 3, 0, 0, 0, 0, 0], 0) == -1  # 15 tiles: none


def test_a_record_holds_the_search_answer_exactly():
    for part in some_suits(300, seed=5):
        answer = searched(part)
        found = witnesses(part)
        record = unmelded_suits.encode(*answer, found)
        assert len(record) == unmelded_suits.RECORD_SIZE == 92
        assert unmelded_suits.decode(record, 0) == answer, part
        assert list(struct.unpack_from("<8I", record, unmelded_suits.WITNESSES_AT)) == found, part


def test_the_record_of_a_suit_no_target_part_fits_says_so():
    record = unmelded_suits.encode([NO_TARGET] * SLOTS, [0] * SLOTS, [0] * SLOTS, [511] * SLOTS, [0] * 8)
    assert len(record) == unmelded_suits.RECORD_SIZE
    assert unmelded_suits.decode(record, 0) == ([NO_TARGET] * SLOTS, [0] * SLOTS, [0] * SLOTS, [511] * SLOTS)


@pytest.mark.skipif(unmelded_suits.records() is None, reason="no table file: the tree was not built with make")
def test_the_built_table_answers_as_the_search_does():
    for part in some_suits(4000, seed=11):
        assert unmelded_suits.table(part, 0) == searched(part), part
        assert unmelded_suits.table([0] * 18 + part + [0] * 7, 18) == searched(part), part


def test_a_suit_of_more_than_fourteen_tiles_is_searched(monkeypatch):
    zeros = bytes(unmelded_suits.HEAD_SIZE + unmelded_suits.SUITS * unmelded_suits.RECORD_SIZE)
    monkeypatch.setattr(unmelded_suits, "_RECORDS", zeros)
    monkeypatch.setattr(unmelded_suits, "_LOADED", True)
    assert unmelded_suits.table([4, 4, 4, 3, 0, 0, 0, 0, 0], 0) is None
    assert unmelded_suits.table([4, 4, 4, 2, 0, 0, 0, 0, 0], 0) == ([0] * SLOTS, [0] * SLOTS, [0] * SLOTS, [0] * SLOTS)


def test_a_table_file_of_another_search_or_size_is_not_read(monkeypatch, tmp_path):
    head = unmelded_suits.MAGIC + unmelded_suits.search_digest()
    stale = tmp_path / "stale.bin"
    stale.write_bytes(unmelded_suits.MAGIC + bytes(32) + bytes(unmelded_suits.SUITS * unmelded_suits.RECORD_SIZE))
    short = tmp_path / "short.bin"
    short.write_bytes(head + bytes(unmelded_suits.RECORD_SIZE))
    for path in (stale, short, tmp_path / "absent.bin"):
        monkeypatch.setattr(unmelded_suits, "TABLE_FILE", str(path))
        assert unmelded_suits._read() is None
    whole = tmp_path / "whole.bin"
    whole.write_bytes(head + bytes(unmelded_suits.SUITS * unmelded_suits.RECORD_SIZE))
    monkeypatch.setattr(unmelded_suits, "TABLE_FILE", str(whole))
    mapped = unmelded_suits._read()
    assert mapped is not None and mapped[:] == whole.read_bytes()
    mapped.close()
    monkeypatch.setattr(unmelded_suits, "BUILD_FILE", str(tmp_path / "no-writer.py"))
    assert unmelded_suits._read() is None  # without the writer that picks the witnesses
    monkeypatch.undo()
    monkeypatch.setattr(unmelded_suits, "TABLE_FILE", str(whole))
    monkeypatch.setattr(unmelded_suits, "SEARCH_FILE", str(tmp_path / "no-search.py"))
    assert unmelded_suits._read() is None


def test_the_suit_tables_answer_alike_with_and_without_the_table_file(monkeypatch):
    held = [0] * 34
    with_file = []
    for part in some_suits(600, seed=23):
        counts = part + [0] * 25
        target_parts.clear_tables()
        with_file.append(target_parts.suit_table(counts, held, 0, False))
    monkeypatch.setattr(unmelded_suits, "_RECORDS", None)
    monkeypatch.setattr(unmelded_suits, "_LOADED", True)
    without_file = []
    for part in some_suits(600, seed=23):
        target_parts.clear_tables()
        without_file.append(target_parts.suit_table(part + [0] * 25, held, 0, False))
    target_parts.clear_tables()
    assert with_file == without_file
    assert with_file[0] == searched([0] * 9)
