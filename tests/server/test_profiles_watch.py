"""A worker's watch on the house profiles directory reloads a change once it has settled: a
Kubernetes ConfigMap update is several steps (the ``..data`` link swapped, then links made for
new keys and removed for old ones), and a half-done update is neither loaded nor refused."""

from __future__ import annotations

import os
from pathlib import Path

from server.profiles import PROFILE_RELOADS, HouseProfiles


def club(name: str, base: int) -> str:
    return f"name: {name}\nbase: classic\noverrides:\n  ordinaryBase: {base}\n"


def reloads(result: str) -> float:
    return PROFILE_RELOADS.labels(result)._value.get()


def swap_data(root: Path, version: int, files: dict[str, str]) -> None:
    """The first step of a ConfigMap update: the new files in place, ``..data`` swapped to them."""
    data = root / f"..v{version}"
    data.mkdir()
    for name, text in files.items():
        (data / name).write_text(text)
    (root / "..data_tmp").symlink_to(data.name)
    os.replace(root / "..data_tmp", root / "..data")


def test_an_update_in_steps_is_reloaded_once_when_it_has_settled(tmp_path):
    root = tmp_path / "profiles"
    root.mkdir()
    swap_data(root, 1, {"club-a.yaml": club("club-a", 3)})
    (root / "club-a.yaml").symlink_to("..data/club-a.yaml")
    watched = HouseProfiles(str(root))
    ok, refused = reloads("ok"), reloads("refused")

    swap_data(root, 2, {"club-a.yaml": club("club-a", 5), "club-c.yaml": "name: club-c\nbase: riichi\n"})
    assert watched.poll() is False  # changed: one more look before reading it
    (root / "club-c.yaml").symlink_to("..data/club-c.yaml")  # the update's next step
    assert watched.poll() is False  # changed again: still settling
    assert watched.poll() is False  # settled, read, and refused: club-c's base is unknown
    assert (reloads("ok") - ok, reloads("refused") - refused) == (0, 1)

    (root / "club-c.yaml").unlink()
    swap_data(root, 3, {"club-a.yaml": club("club-a", 5), "club-b.json": '{"name": "club-b", "base": "lezi"}'})
    assert watched.poll() is False
    (root / "club-b.json").symlink_to("..data/club-b.json")
    assert watched.poll() is False
    assert watched.poll() is True
    assert watched.poll() is False  # nothing new since: no second reload
    assert [entry.name for entry in watched.registry.house] == ["club-a", "club-b"]
    assert (reloads("ok") - ok, reloads("refused") - refused) == (1, 1)
