"""The explorer with a server that has house profiles: they join the profile menus (settle,
waits, compare) after the built-in ones, and a hand settles under one as the server settles it."""

from __future__ import annotations

import rules_core as rc
from convert.profile_digest import BUILTIN_REGISTRY as DIGESTED
from tests.explorer.form import enter, open_explorer, settle
from tests.server.conftest import run_server
from tests.worked_examples import WORKED_EXAMPLES

CLUB_A = (
    "name: shanghai-club-a\nbase: lezi\ndescription: 勒子 room, base 3\n"
    "overrides:\n  ordinaryBase: 3\n  liabilityMode: LIABILITY_MODE_REPLACE\n"
)


def test_house_profiles_join_the_menus_and_settle(browser, tmp_path):
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "club-a.yaml").write_text(CLUB_A)
    with run_server(tmp_path, "--profiles-dir", str(profiles)) as server:
        page = open_explorer(browser, server.http_url)
        try:
            for menu in ("#profile", "#waits-profile", "#advice-profile"):
                assert page.locator(f"{menu} option").all_inner_texts() == [*rc.BUILTIN_PROFILES, "shanghai-club-a"]
            assert page.locator("#compare option").all_inner_texts()[1:] == [*rc.BUILTIN_PROFILES, "shanghai-club-a"]
            assert page.get_attribute("#profile option[value=shanghai-club-a]", "title") == "lezi: 勒子 room, base 3"
            request = WORKED_EXAMPLES[0][1]._replace(profile="shanghai-club-a")
            enter(page, request)
            settle(page)
            assert page.inner_text("#settle-error") == ""
            expected = rc.settle(request._replace(profile="lezi", overrides={"ordinary_base": 3}), DIGESTED)
            shown = page.locator("#result .deltas .delta").all_inner_texts()
            assert shown == [f"{d:+g}" for d in expected.seat_deltas] == ["+18", "-6", "-6", "-6"]
        finally:
            page.close()
