"""shmj: score hands, replay and review hand records, list waits, advise, show profiles, rescore, load-test.

Requests are built in the proto3 JSON form of API.md, so ``--local`` (rules_core
in this process) and a server (``--target``) take the same path and print the same.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import grpc
from google.protobuf.json_format import ParseDict, ParseError
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from mahjong.shanghai.v1 import profile_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from batch.paths import InputError
from clients import cli_args as check
from clients import command_tracing, report
from clients.cli_args import UsageError
from clients.cli_environment import DEFAULT_TARGET, apply_environment
from clients.cli_failures import exit_status, explain, status_said
from clients.client import ScoringClient
from clients.errors import ScoringError
from clients.message_kind import refuse_a_record, refuse_a_request
from convert.json_api import list_waits_json
from convert.json_names import TILE
from convert.profile_digest import BUILTIN_REGISTRY
from rules_core import build
from rules_core.liability_words import needs_threshold
from rules_core.notation import parse_tiles
from rules_core.registry import ProfileRegistry
from rules_core.vocabulary import term
from tracing_setup import TracingConfigError

# --- building requests ----------------------------------------------------------------------


def hand_json(text: str, win: str | None, flowers: str) -> dict:
    """A Hand in proto3 JSON from notation (``win``: the winning tile; dragon flowers ``Cf``
    among the flowers or in the hand)."""
    return convert.message_dict(convert.hand_message(build.hand(text, win, flowers)))


def tiles_json(text: str) -> list[str]:
    return [TILE.name_of[t] for t in parse_tiles(text)] if text else []


def parse_overrides(pairs: list[tuple[str, object]] | None) -> dict:
    """The ``--override`` pairs (checked by `cli_args.override`) as a partial RuleProfile (JSON)."""
    return dict(pairs or ())


def table_json(args) -> dict:
    request: dict = {"profile": args.profile, "dealerSeat": args.dealer, "huangfanCount": args.huangfan}
    if args.dice:
        request["dice"] = args.dice
    overrides = parse_overrides(args.override)
    if overrides:
        request["overrides"] = overrides
    return request


# RULES.md section 2 at hand, under `shmj score --help` and `shmj waits --help`.
NOTATION_HELP = """\
hand notation (RULES.md section 2):
  123m 456p 789s  suited tiles 1-9: m 万 characters, p 筒 dots, s 条 bamboo
  E S W N         winds 东南西北;  C F P  dragons 红中 发财 白板
  EEE 77s         concealed tiles, the winning tile among them (and named by --win)
  [123m@3]        a chow claimed from seat 3 (only the previous player's discard, 上家)
  [555p@1]        a pung claimed from seat 1
  [5555p@1]       an exposed kong (明杠) claimed from seat 1
  [5555p+@1]      an added kong (上杠): a pung from seat 1, upgraded with a drawn tile
  [5555p]         a concealed kong (暗杠)
  1f 5f           flowers 1f-8f: 春夏秋冬梅兰竹菊 (in the hand or with --flowers)
  Cf Ff Pf        中发白 held as flowers, under qiaoma and qiaoma_lezi (敲麻)
example: shmj score "111m 555m 999p EEE 77s" --win 7s --flowers "1f 5f"
"""


# The seat flags an outcome needs: (flag, its attribute, what the seat is).
_SEAT_OF_OUTCOME = {
    "OUTCOME_DISCARD": ("--discarder", "discarder", "the seat whose discard won"),
    "OUTCOME_ROBBING_KONG": ("--discarder", "discarder", "the seat whose kong was robbed"),
    "OUTCOME_ABANDON": ("--abandoning", "abandoning", "the seat that left"),
}


def _check_outcome_seats(args) -> None:
    """The discarder or the leaving seat is named exactly when the outcome has one: a seat left
    out would silently be seat 0, a seat given for nothing would be silently ignored."""
    needed = _SEAT_OF_OUTCOME.get(args.outcome)
    spelling = args.outcome.removeprefix("OUTCOME_").lower().replace("_", "-")
    if needed and getattr(args, needed[1]) is None:
        raise UsageError(f"--outcome {spelling} needs {needed[0]} SEAT, {needed[2]}")
    if args.discarder is not None and (not needed or needed[1] != "discarder"):
        raise UsageError(f"--discarder goes with --outcome discard or robbing-kong, not {spelling}")
    if args.abandoning is not None and (not needed or needed[1] != "abandoning"):
        raise UsageError(f"--abandoning goes with --outcome abandon, not {spelling}")


def score_request(args) -> dict:
    if args.request is not None:
        if args.hand:
            raise UsageError("give a hand or --request FILE, not both")
        refuse_a_record(args.request, "--request FILE")
        return args.request
    _check_outcome_seats(args)
    request = table_json(args)
    outcome = args.outcome
    request.update(outcome=outcome, discarderSeat=args.discarder or 0, requestId=args.request_id)
    if outcome in ("OUTCOME_EXHAUSTIVE_DRAW", "OUTCOME_ABANDON"):
        if args.hand or args.win:  # else the hand would be dropped without a word
            spelling = outcome.removeprefix("OUTCOME_").lower().replace("_", "-")
            raise UsageError(
                f"a hand and --win name a winner, and --outcome {spelling} has none:"
                " leave out the hand and --win, or give the outcome it was won by"
            )
        request["abandoningSeat"] = args.abandoning or 0
        return request
    request["winners"] = [winner_json(args)]
    request["liabilities"] = [claim for claims in args.claims or () for claim in claims]
    request["declaredSeats"] = list(args.declared or ())
    return request


def winner_json(args) -> dict:
    """The Winner of the flags: the hand, --win, and the winner's flags."""
    if not args.hand:
        raise UsageError("give a hand in notation, such as '111m 555m 999p EEE 77s'")
    winner = {
        "seat": args.seat,
        "hand": hand_json(args.hand, args.win, args.flowers),
        "passedTiles": tiles_json(args.passed),
        "replacementDraw": args.replacement_draw,
        "firstGoAround": args.first_go_around,
        "lastTile": args.last_tile,
    }
    if not args.win:  # after the hand, whose notation is read first
        raise UsageError("give the winning tile with --win, such as --win 7s")
    return winner


def check_request(args) -> dict:
    """A CheckWinRequest in JSON from the flags: one candidate win, no payments."""
    if args.outcome in ("OUTCOME_EXHAUSTIVE_DRAW", "OUTCOME_ABANDON"):
        spelling = args.outcome.removeprefix("OUTCOME_").lower().replace("_", "-")
        raise UsageError(f"check judges a win: --outcome {spelling} has no winner")
    request = table_json(args)
    request.update(outcome=args.outcome, requestId=args.request_id, winner=winner_json(args))
    request["declaredSeats"] = list(args.declared or ())
    return request


# --- running them ---------------------------------------------------------------------------


def _client(args) -> ScoringClient:
    return ScoringClient(
        args.target,
        tls=args.tls,
        root_certificates=args.ca,
        client_cert=args.cert,
        client_key=args.key,
        timeout=args.timeout,
    )


def check_tls_flags(args) -> None:
    if bool(getattr(args, "cert", None)) != bool(getattr(args, "key", None)):
        raise UsageError("--cert and --key (or SHMJ_CERT and SHMJ_KEY) go together (mutual TLS)")


def request_message(request: dict) -> pb.SettleRequest:
    """The message of a request in JSON, read by rules_core's reader as with --local: a fault is
    named by its field (rc.InvalidRequest) whichever way the request is settled."""
    from convert.json_read import read_settle_request

    return convert.settle_request_message(read_settle_request(request))


def check_profiles_dir_flag(args) -> None:
    if getattr(args, "profiles_dir", None) and not args.local and not getattr(args, "dask", None):
        raise UsageError("--profiles-dir goes with --local (a server reads its own --profiles-dir)")


def house_profiles(args) -> ProfileRegistry:
    """The profiles ``--local`` may name: the built-in ones, and those of ``--profiles-dir``."""
    directory = getattr(args, "profiles_dir", None)
    if not directory:
        return BUILTIN_REGISTRY
    from profile_files import load_profiles_dir

    loaded = load_profiles_dir(directory, args.profiles_follow_links)
    if not loaded.ok:
        raise UsageError(f"bad house profiles in {directory}:\n  " + "\n  ".join(map(str, loaded.problems)))
    return loaded.registry


def house_documents(args) -> list[list]:
    """The house profiles of ``--profiles-dir`` as data for batch workers (checked here first)."""
    if not getattr(args, "profiles_dir", None):
        return []
    house_profiles(args)  # every problem reported before any work starts
    from profile_files import load_profiles_dir, shippable

    return shippable(load_profiles_dir(args.profiles_dir, args.profiles_follow_links))


def settle_dict(args, request: dict) -> dict:
    if args.local:
        return rc.settle_json(request, house_profiles(args))
    message = request_message(request)
    with _client(args) as client:
        return convert.message_dict(client.settle(message))


def waits_dict(args) -> dict:
    request = table_json(args)
    request.update(
        seat=args.seat,
        hand=hand_json(args.hand, None, args.flowers),
        passedTiles=tiles_json(args.passed),
        replacementDraw=args.replacement_draw,
        firstGoAround=args.first_go_around,
        lastTile=args.last_tile,
        declaredSeats=list(args.declared or ()),
    )
    if args.local:
        return list_waits_json(request, house_profiles(args))
    with _client(args) as client:
        return convert.message_dict(client.list_waits(ParseDict(request, svc.ListWaitsRequest())))


def profiles_dict(args) -> dict:
    if args.local:
        from rules_core.overrides import resolve_profile

        registry = house_profiles(args)
        if args.name:
            profile, violations = resolve_profile(args.name, None, registry)
            if violations:
                raise rc.InvalidRequest(violations)
            return convert.message_dict(convert.get_profile_response(profile, registry.entry(args.name)))
        return convert.message_dict(convert.list_profiles_response(registry.entries))
    with _client(args) as client:
        answer = client.describe_profile(args.name) if args.name else client.describe_profiles()
        return convert.message_dict(answer)


def effective_profile(args, request: dict, digest: str = "") -> dict | None:
    """The request's effective RuleProfile in proto3 JSON (its profile and overrides): from
    rules_core with ``--local``, or when the answer's ``digest`` is that of the same profile
    resolved here from the built-ins (the server settled by exactly it); else asked of the
    server (GetProfile). None when unknown."""
    name, overrides = request.get("profile", ""), request.get("overrides") or None
    if args.local or digest:
        from convert.json_read import read_overrides
        from convert.profile_digest import profile_digest
        from rules_core.overrides import resolve_profile

        changes = read_overrides(overrides, "overrides", [])  # already checked by the settlement
        profile, _ = resolve_profile(name, changes, house_profiles(args) if args.local else BUILTIN_REGISTRY)
        if args.local or (profile is not None and profile_digest(profile) == digest):
            return convert.message_dict(convert.rule_profile(profile)) if profile is not None else None
    with _client(args) as client:
        changes = ParseDict(overrides, profile_pb2.RuleProfile()) if overrides else None
        return convert.message_dict(client.get_profile(name, changes))


def liability_threshold(args, request: dict, response: dict) -> int | None:
    """The effective profile's liability threshold, which saying why a liable seat pays twice
    needs; asked for only when the settlement has a liability payment (None otherwise)."""
    if not needs_threshold(response.get("payments", [])):
        return None
    profile = effective_profile(args, request, response.get("profileDigest", ""))
    return int(profile.get("liabilityThreshold", 0)) if profile is not None else None


# Items whose words depend on the profile: a 番 doubles or adds (RULES.md section 14.4).
_WORDED_ITEMS = frozenset({"ITEM_KIND_FAN", "ITEM_KIND_CAP"})


def worded_profile(args, request: dict, response: dict) -> dict | None:
    """The effective profile, when the settlement's words need it: a 番 or cap item, or a
    liability payment (None otherwise)."""
    needs_profile = needs_threshold(response.get("payments", [])) or any(
        item.get("kind") in _WORDED_ITEMS for winner in response.get("winners", []) for item in winner.get("items", [])
    )
    return effective_profile(args, request, response.get("profileDigest", "")) if needs_profile else None


def settlement_text(args, request: dict, response: dict) -> str:
    """The settlement as a table: each item's effect as the profile makes it, why each liable
    seat pays. The profile is asked for only when the words need it."""
    profile = worded_profile(args, request, response)
    liabilities = request.get("liabilities") or []
    return report.settlement_table(response, liabilities, None, profile, request.get("declaredSeats"))


def cmd_score(args) -> int:
    request = score_request(args)
    if args.command == "request":  # the same flags, the request printed instead of settled
        print(json.dumps(convert.message_dict(request_message(request)), ensure_ascii=False))
        return 0
    response = settle_dict(args, request)
    print(json.dumps(response, ensure_ascii=False, indent=2) if args.json else settlement_text(args, request, response))
    return 0


def cmd_check(args) -> int:
    """CheckWin: the candidate's legality, patterns and itemised value, in the words of score."""
    from convert.json_read import read_check_win_request
    from rules_core.waits import judge_win

    request = check_request(args)
    core = read_check_win_request(request)  # a fault is named before anything is sent
    if args.local:
        result, digest = judge_win(core, house_profiles(args))
        response = convert.message_dict(convert.check_win_response(core.request_id, result, digest))
    else:
        with _client(args) as client:
            response = convert.message_dict(client.check_win(convert.check_win_request_message(core)))
    if args.json:
        print(json.dumps(response, ensure_ascii=False, indent=2))
        return 0
    print(report.check_table(response, effective_profile(args, request) or {}, request.get("profile", "")))
    return 0


def cmd_waits(args) -> int:
    response = waits_dict(args)
    if args.json:
        print(json.dumps(response, ensure_ascii=False, indent=2))
        return 0
    print(report.waits_table(response))
    nothing = not response.get("discardWaits") and not response.get("selfDrawWaits")
    if nothing and args.seat not in (args.declared or ()):  # 敲: perhaps no win before the knock
        profile = effective_profile(args, table_json(args))
        if profile is not None and profile.get("winRequiresDeclaration"):
            print(f"seat {args.seat} {term('not_knocked_no_wait')} (--declared {args.seat})")
    return 0


def cmd_profiles(args) -> int:
    if args.profiles_command == "check":
        return cmd_profiles_check(args)
    answer = profiles_dict(args)
    if args.json:
        print(json.dumps(answer, ensure_ascii=False, indent=2))
    else:
        from clients.profile_report import profile_table, profiles_table

        print(profile_table(answer) if args.name else profiles_table(answer))
    return 0


def cmd_profiles_check(args) -> int:
    """Validate a directory of house profiles as the server would: every problem on its own line
    (file, field path, what is wrong) and exit 1, or a summary and exit 0."""
    from profile_files import load_profiles_dir

    loaded = load_profiles_dir(args.directory, args.profiles_follow_links)
    if not loaded.ok:
        for problem in loaded.problems:
            print(problem)
        files = {p.source for p in loaded.problems} - {str(Path(args.directory))}
        if files:
            said = f"{len(loaded.problems)} {term('problems')} in {len(files)} {term('files')}"
            said += f"; {term('server_refuses_directory')}"
        else:
            said = f"{term('directory_unreadable')}; {term('server_refuses_it')}"
        print(f"shmj profiles check: {said}", file=sys.stderr)
        return 1
    house = loaded.registry.house
    print(f"{args.directory}: {len(house)} {term('house_profiles')}, {term('all_valid')}")
    for entry in house:
        print(f"  {entry.name}  ({term('base')} {entry.base})  {report.printable(entry.description)}".rstrip())
    return 0


def answered_record(args, local, remote) -> tuple[dict, rc.SettleRecordRequest, dict]:
    """The record of ``args.file`` (``--line``), read here (a malformed one is named before
    anything is sent, and a server gets this reading, not protobuf's of the JSON), and its
    answer: ``local(data, profiles)`` with ``--local``, else ``remote(client, message)``."""
    from convert.json_read import read_settle_record_request
    from convert.records import settle_record_request_message

    data = check.record_request(args.file, args.line)
    refuse_a_request(data, f"{args.file} line {args.line}" if args.line else args.file)
    record = read_settle_record_request(data)  # a malformed record is named before anything is sent
    if args.local:
        return data, record, local(data, house_profiles(args))
    with _client(args) as client:
        return data, record, remote(client, settle_record_request_message(record))


def cmd_replay(args) -> int:
    from clients.replay_report import record_story
    from convert.results import settle_record_response_dict

    data, record, response = answered_record(
        args,
        rc.settle_record_json,
        lambda client, message: settle_record_response_dict(client.settle_record(message)),
    )
    if args.json:
        print(json.dumps(response, ensure_ascii=False, indent=2))
    else:
        settlement = response.get("settlement", {})
        threshold = liability_threshold(args, data, settlement)
        print(record_story(record, response, threshold, worded_profile(args, data, settlement)))
    return 0


def advise_request(args) -> dict:
    """An AdviseRequest in JSON from the flags: the holding (with ``--melds``), ``--seen``, the table."""
    request = table_json(args)
    holding = f"{args.hand} {args.melds}".strip()
    request.update(
        requestId=args.request_id,
        seat=args.seat,
        hand=hand_json(holding, None, args.flowers),
        seen=tiles_json(args.seen),
    )
    return request


def cmd_advise(args) -> int:
    from clients.advice_report import advice_table
    from convert.advice import advice_result, advise_request_message
    from convert.advice_json import advise_response_dict, read_advise_request

    request = advise_request(args)
    core = read_advise_request(request)  # a malformed request is named before anything is sent
    if args.local:
        response = rc.advise_json(request, house_profiles(args))
    else:
        with _client(args) as client:
            response = advise_response_dict(advice_result(client.advise(advise_request_message(core))))
    print(json.dumps(response, ensure_ascii=False, indent=2) if args.json else advice_table(response))
    return 0


def cmd_review(args) -> int:
    if args.output is not None:
        from clients.review_batch import review_batch_command

        return review_batch_command(args, house_documents(args))
    from clients.advice_report import review_table
    from clients.review_batch import one_record_only
    from convert.advice import review_result
    from convert.advice_json import review_record_response_dict

    one_record_only(args)
    _, _, response = answered_record(
        args,
        rc.review_record_json,
        lambda client, message: review_record_response_dict(review_result(client.review_record(message))),
    )
    print(json.dumps(response, ensure_ascii=False, indent=2) if args.json else review_table(response))
    return 0


def cmd_rescore(args) -> int:
    from clients.rescore import rescore_command

    return rescore_command(args, parse_overrides(args.override), house_documents(args))


def cmd_loadtest(args) -> int:
    from clients.loadtest import loadtest_command

    return loadtest_command(args)


# --- arguments ------------------------------------------------------------------------------


def _connection(parser: argparse.ArgumentParser, local: bool = True) -> None:
    group = parser.add_argument_group("where to settle")
    if local:
        group.add_argument("--local", action="store_true", help="use rules_core in this process, no server")
        group.add_argument(
            "--profiles-dir",
            type=check.directory,
            metavar="DIR",
            help="house profiles for --local (and --dask): every *.yaml, *.yml or *.json file in DIR",
        )
        _follow_links_flag(group)
    group.add_argument(
        "--target", type=check.target, help=f"server host:port (default $SHMJ_TARGET, else {DEFAULT_TARGET})"
    )
    group.add_argument(
        "--tls", action=argparse.BooleanOptionalAction, help="connect with TLS, or not (default $SHMJ_TLS, else not)"
    )
    group.add_argument(
        "--ca", type=check.pem_file, help="PEM file of the CA that signed the server certificate (default $SHMJ_CA)"
    )
    group.add_argument("--cert", type=check.pem_file, help="PEM client certificate, mutual TLS (default $SHMJ_CERT)")
    group.add_argument("--key", type=check.pem_file, help="PEM client key, mutual TLS (default $SHMJ_KEY)")
    group.add_argument(
        "--timeout", type=check.seconds, default=10.0, help="deadline of each call in seconds (default 10)"
    )


def _follow_links_flag(parser) -> None:
    parser.add_argument(
        "--profiles-follow-links",
        action="store_true",
        help="read profile files that are symbolic links out of the directory (links inside it are always read)",
    )


def _table(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("the table")
    group.add_argument(
        "--profile",
        type=check.profile_name,
        default="classic",
        help="classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng or a house profile (default classic)",
    )
    group.add_argument(
        "--override",
        action="append",
        type=check.override,
        metavar="KEY=VALUE",
        help="override a profile field, e.g. ordinary_base=5 or huangfan_mode=PER_LEVEL",
    )
    group.add_argument("--dealer", type=check.seat, default=0, help="dealer seat (default 0)")
    group.add_argument("--dice", type=check.dice, help="the two dice, e.g. 3,3 (or 3 3)")
    group.add_argument("--huangfan", type=check.count, default=0, help="荒番 count this hand starts with")


def _candidate_win(parser: argparse.ArgumentParser, outcomes: str) -> None:
    """The hand, its winning tile and how it was won: score's and check's."""
    parser.add_argument("hand", nargs="?", help="the winning hand, e.g. '111m 555m 999p EEE 77s [555p@1] 1f'")
    parser.add_argument("--win", help="the winning tile, e.g. 7s")
    parser.add_argument("--outcome", type=check.outcome_name, default="OUTCOME_SELF_DRAW", help=outcomes)


def _winner_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seat", type=check.seat, default=0, help="the winner's seat (default 0)")
    parser.add_argument("--flowers", default="", help="flowers, e.g. '1f 5f' or '1f Cf' (or put them in the hand)")
    parser.add_argument("--passed", default="", help="漏胡: tiles passed on since the last action, e.g. '5m'")
    parser.add_argument("--replacement-draw", action="store_true", help="won on a replacement tile (杠开)")
    parser.add_argument("--first-go-around", action="store_true", help="in the first go-around (天胡 / 地胡)")
    parser.add_argument(
        "--last-tile",
        action="store_true",
        help="won (for waits: a self-draw would win) on the last tile of the wall (海底捞月)",
    )
    parser.add_argument(
        "--declared",
        type=check.seats,
        metavar="SEATS",
        help="the seats that have knocked (敲), e.g. 0,2: under qiaoma only they may win (declared_seats)",
    )
    parser.add_argument("--json", action="store_true", help="print the raw response as JSON")


def build_parser() -> argparse.ArgumentParser:
    parser = check.Parser(
        prog="shmj",
        description=__doc__.splitlines()[0],
        epilog="Where to connect, when no flag says: SHMJ_TARGET, SHMJ_TLS (1 or 0), SHMJ_CA, SHMJ_CERT, SHMJ_KEY.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    from clients.rescore_arguments import add_batch_arguments, add_job_arguments, add_rescore_arguments

    score = commands.add_parser(
        "score",
        aliases=["request"],
        help="settle one hand and print the itemised result; as `request`, print the SettleRequest (one JSON line)",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _candidate_win(score, "self-draw (the default), discard, robbing-kong, eight-flowers, exhaustive-draw or abandon")
    score.add_argument("--discarder", type=check.seat, help="the discarder (or the kong player when robbed)")
    score.add_argument("--abandoning", type=check.seat, help="the seat that left (abandon)")
    score.add_argument(
        "--claims",
        action="append",
        type=check.claims,
        metavar="CLAIMER:SOURCE:COUNT",
        help="melds claimed from a seat's discards, e.g. 1:2:3 (or 1<2:3; the count defaults to 3; "
        "several separated by commas, or the flag repeated) (liability); 1:2:3:kept when the claimer's "
        "melds keep a pattern (承包, pattern_kept)",
    )
    score.add_argument("--request-id", default="", help="an id echoed in the response")
    score.add_argument("--request", type=check.json_request, help="a SettleRequest JSON file instead of the flags")
    _winner_flags(score)
    _table(score)
    _connection(score)
    score.set_defaults(run=cmd_score)

    check_win = commands.add_parser(
        "check",
        help="judge one candidate win (CheckWin): legality, patterns and the itemised value, no payments",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _candidate_win(check_win, "self-draw (the default), discard, robbing-kong or eight-flowers")
    check_win.add_argument("--request-id", default="", help="an id echoed in the response")
    _winner_flags(check_win)
    _table(check_win)
    _connection(check_win)
    check_win.set_defaults(run=cmd_check)

    waits = commands.add_parser(
        "waits",
        help="list the winning tiles of a hand one tile short",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    waits.add_argument("hand", help="13 tiles less 3 per meld, e.g. '111m 555m 999p EEE 7s'")
    _winner_flags(waits)
    _table(waits)
    _connection(waits)
    waits.set_defaults(run=cmd_waits)

    replay = commands.add_parser(
        "replay",
        help="replay a hand record (牌谱): each event, every pass (漏胡), the derived request and the settlement",
    )
    replay.add_argument("file", help="a SettleRecordRequest JSON file, or JSON Lines of them (- reads stdin)")
    replay.add_argument("--line", type=check.line_number, help="the record on line N of a JSON Lines file (from 1)")
    replay.add_argument("--json", action="store_true", help="print the SettleRecordResponse as JSON")
    _connection(replay)
    replay.set_defaults(run=cmd_replay)

    advise = commands.add_parser(
        "advise",
        help="how far a holding is from a legal win (向听数), path by path, and what to discard",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    advise.add_argument("hand", help="13 or 14 concealed tiles less 3 per meld, e.g. '111p 222p 333p 7789p C'")
    advise.add_argument(
        "--melds", default="", help="the seat's melds, e.g. '[123m@3] [EEE@1]' (or put them in the hand)"
    )
    advise.add_argument("--flowers", default="", help="flowers, e.g. '1f 5f' (or put them in the hand)")
    advise.add_argument("--seen", default="", help="tiles the seat sees outside its holding (discards, others' melds)")
    advise.add_argument("--seat", type=check.seat, default=0, help="the seat that holds the tiles (default 0)")
    advise.add_argument("--request-id", default="", help="an id echoed in the response")
    advise.add_argument("--json", action="store_true", help="print the AdviseResponse as JSON")
    _table(advise)
    _connection(advise)
    advise.set_defaults(run=cmd_advise)

    review = commands.add_parser(
        "review",
        help="review a hand record (复盘): each seat's discards against the advice, and the ones not among the best;"
        " with -o, a JSON Lines file of them, one review line each",
    )
    review.add_argument(
        "input",
        nargs="+",
        metavar="FILE",
        help="a SettleRecordRequest JSON file, or JSON Lines of them (- reads stdin); with -o, JSON Lines of them"
        " (with --dask, files, globs or dirs)",
    )
    review.add_argument("--line", type=check.line_number, help="the record on line N of a JSON Lines file (from 1)")
    review.add_argument("--json", action="store_true", help="print the ReviewRecordResponse as JSON")
    add_job_arguments(review, "JSON Lines of ReviewRecordResponse or error, one per input line", required=False)
    add_batch_arguments(review, rescore=False)
    _connection(review)
    review.set_defaults(run=cmd_review)

    profiles = commands.add_parser(
        "profiles",
        help="print the profiles (built-in and house), or one by --name; `profiles check DIR` validates house profiles",
    )
    profiles.add_argument("--name", type=check.profile_name, help="one profile")
    profiles.add_argument("--json", action="store_true", help="print the ListProfiles or GetProfile answer as JSON")
    _connection(profiles)
    profiles.set_defaults(run=cmd_profiles)
    checks = profiles.add_subparsers(dest="profiles_command", metavar="check")
    check_dir = checks.add_parser("check", help="validate a directory of house profiles; exit 1 on any problem")
    check_dir.add_argument("directory", help="the directory of *.yaml, *.yml and *.json house profile files")
    _follow_links_flag(check_dir)

    from clients.loadtest import add_loadtest_arguments

    rescore = commands.add_parser("rescore", help="settle a JSON Lines file of SettleRequests into another")
    add_rescore_arguments(rescore)
    add_batch_arguments(rescore)
    _table_overrides_only(rescore)
    _connection(rescore)
    rescore.set_defaults(run=cmd_rescore)

    loadtest = commands.add_parser("loadtest", help="open-loop load at a fixed rate; JSON report and PNG plot")
    add_loadtest_arguments(loadtest)
    _connection(loadtest, local=False)
    loadtest.set_defaults(run=cmd_loadtest)

    from clients.health import add_health_arguments, health_command

    health = commands.add_parser("health", help="ask the gRPC health service; exit 0 when SERVING, 1 otherwise")
    add_health_arguments(health)
    _connection(health, local=False)
    health.set_defaults(run=lambda args: health_command(args, _client))
    return parser


def _table_overrides_only(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("re-settling under other rules")
    group.add_argument(
        "--profile", type=check.profile_name, help="settle every line under this profile instead of its own"
    )
    group.add_argument(
        "--override",
        action="append",
        type=check.override,
        metavar="KEY=VALUE",
        help="override a profile field on every line, e.g. ordinary_base=5",
    )


def print_violations(violations) -> None:
    for field, description in violations:
        print(f"  {field}: {description}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)  # imports each command's modules: a Ctrl-C may come
    except KeyboardInterrupt:
        print("shmj: interrupted", file=sys.stderr)
        return 130
    try:
        tracing = command_tracing.start(os.environ)  # off unless OTEL_TRACES_EXPORTER turns it on
    except TracingConfigError as error:
        print(f"shmj: {error}", file=sys.stderr)
        return 2
    try:
        return run_command(args)
    finally:
        if tracing is not None:
            tracing.finish()  # the command's spans exported, or one line saying they were not


# What batch work beyond one process needs (requirements-batch.txt), which the server's own
# install (`make run`) leaves out.
BATCH_PACKAGES = {"dask", "distributed", "pyarrow"}


def run_command(args) -> int:
    """Run the parsed command; a user's mistake or a failed call is one message and an exit status."""
    try:
        apply_environment(args, os.environ)
        check_tls_flags(args)
        check_profiles_dir_flag(args)
        code = args.run(args)
        sys.stdout.flush()  # here, where a reader gone away is caught, not at exit
        return code
    except BrokenPipeError:
        return check.exit_on_broken_pipe()
    except KeyboardInterrupt:
        print("shmj: interrupted", file=sys.stderr)
        return 130
    except (UsageError, InputError) as error:  # InputError: a batch job's input or output it cannot use
        print(f"shmj: {error}", file=sys.stderr)
        return 2
    except rc.NotationError as error:
        print(f"shmj: bad notation: {error}", file=sys.stderr)
        return 2
    except rc.InvalidRequest as error:  # found before any call, named as a server would
        print(f"shmj: {status_said(grpc.StatusCode.INVALID_ARGUMENT)}", file=sys.stderr)
        print_violations(error.violations)
        return 2
    except ParseError as error:
        print(f"shmj: {status_said(grpc.StatusCode.INVALID_ARGUMENT)}: {error}", file=sys.stderr)
        return 2
    except ScoringError as error:
        summary = "" if error.violations else ": " + explain(error.code, error.message, args.target, args.tls)
        print(f"shmj: {status_said(error.code)}{summary}", file=sys.stderr)
        print_violations(error.violations)
        return exit_status(error.code)
    except grpc.RpcError as error:
        status = rpc_status.from_call(error)
        if status is not None and any(d.Is(error_details_pb2.BadRequest.DESCRIPTOR) for d in status.details):
            summary = ""
        else:
            summary = ": " + explain(error.code(), error.details() or "", args.target, args.tls)
        print(f"shmj: {status_said(error.code())}{summary}", file=sys.stderr)
        if status is not None:
            for detail in status.details:
                bad_request = error_details_pb2.BadRequest()
                if detail.Unpack(bad_request):
                    print_violations((v.field, v.description) for v in bad_request.field_violations)
        return exit_status(error.code())
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in BATCH_PACKAGES:
            raise
        print(
            f"shmj: this needs {error.name}, which this environment lacks: `make install` installs it with Dask"
            " (requirements-batch.txt)",
            file=sys.stderr,
        )
        return 2
    except OSError as error:  # a file that could not be written during the run: a full disk
        where = f" {error.filename}" if error.filename else ""
        print(f"shmj:{where}: {error.strerror or error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
