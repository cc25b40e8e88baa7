"""``POST /explorer/profile-words``: each profile's field values in the words `shmj profiles`
prints (`rules_core.profile_words`: ``10 分``, ``3 × V 份``, ``no liability 不承包``), for the
explorer's Profiles view.

Body: ``{"profiles": [RuleProfile in proto3 JSON, ...]}`` as ``ListProfiles`` answers them.
Answer: ``{"profiles": [{"lazi_value": ["20 花"], "fixed_values": ["Full flush 清一色 = 20 花",
...], ...}, ...]}``, every field but ``name`` by its snake_case name, its value's lines: those of
RULES.md section 14 at their defaults too (``no 否``), since the view sets profiles side by side.
"""

from __future__ import annotations

from google.protobuf.json_format import ParseDict, ParseError
from mahjong.shanghai.v1 import profile_pb2

from convert.json_form import message_dict
from convert.json_names import camel
from rules_core.errors import excerpt
from rules_core.profile_words import field_values
from rules_core.validation import MAX_LENGTHS, over_limit
from server.explorer.bodies import BadExplorerBody, read_object

MAX_PROFILES = 256  # a ListProfiles answer of the built-in and every house profile
# A profile with each list at its bound and a description of 500 characters is under 16 KB of JSON.
MAX_PROFILE_BYTES = 20 * 1024
MAX_BODY_BYTES = MAX_PROFILES * MAX_PROFILE_BYTES
# Counted before the body is parsed (each object it holds is made, a microsecond each): such a
# profile has about 700 commas, and its description 500 more at most.
MAX_PROFILE_COMMAS = 2048
MAX_COMMAS = MAX_PROFILES * MAX_PROFILE_COMMAS
# The profile's lists by either spelling of their names (each bounded in `MAX_LENGTHS`).
_LISTS = {
    spelling: field.name
    for field in profile_pb2.RuleProfile.DESCRIPTOR.fields
    if field.name in MAX_LENGTHS
    for spelling in (field.name, camel(field.name))
}


def read_profile_words(body: bytes) -> dict:
    commas = body.count(b",")
    if commas > MAX_COMMAS:
        raise BadExplorerBody(
            f"the body has {commas:,} commas: more than {MAX_PROFILES} profiles hold ({MAX_COMMAS:,})"
        )
    data = read_object(body, ("profiles",), '{"profiles": [{"name": "classic", ...}]}')
    profiles = data.get("profiles", [])
    if not isinstance(profiles, list) or len(profiles) > MAX_PROFILES:
        raise BadExplorerBody(f"profiles: expected a list of at most {MAX_PROFILES} profiles, got {excerpt(profiles)}")
    said = []
    for index, profile in enumerate(profiles):
        if not isinstance(profile, dict):
            raise BadExplorerBody(f"profiles[{index}]: expected a RuleProfile object, got {excerpt(profile)}")
        _check_lists(profile, index)
        try:  # read as the service reads a RuleProfile, so every value has its type and range
            canonical = message_dict(ParseDict(profile, profile_pb2.RuleProfile()))
        except ParseError as error:
            raise BadExplorerBody(f"profiles[{index}]: not a RuleProfile: {str(error)[:200]}") from None
        said.append(field_values(canonical, every_field=True))
    return {"profiles": said}


def _check_lists(profile: dict, index: int) -> None:
    """Each list of the profile within a profile's bound, before protobuf reads any element
    (a list of millions cost seconds, and its words many times its size)."""
    for key, value in profile.items():
        name = _LISTS.get(key)
        if name is not None and isinstance(value, list):
            problem = over_limit(name, len(value))
            if problem:
                raise BadExplorerBody(f"profiles[{index}].{key}: {problem}")
