"""The worker processes of ``shmj rescore``: each settles chunks of numbered lines, with
rules_core here (``--local``) or through SettleBatch calls to a server (a hand record line
through a SettleRecord call), and returns their
output lines and counts. Lines are read by ``batch.records.read_line`` either way, so a bad
line gets the same error record whichever settles it. ``--local --workers 1`` settles its
chunks with the same function in the coordinating process itself (``clients.rescore``)."""

from __future__ import annotations

import os
import threading
import time

from batch.collector import collector_paused
from batch.lines import chunk_lines
from batch.local import answer_output, settle_answer
from batch.records import error_line, is_record, new_counts, output_line, read_line, request_id_of
from rules_core.requests import SettleRequest
from rules_core.results import SettleResult

settings: dict = {}  # this worker's: the job's settings, its house profiles, its client


class ServerFailure(Exception):
    """The server could not settle a chunk at all; the job stops and can be resumed."""


def server_failure(error) -> ServerFailure:
    """A failed call that stops the job, said as every shmj command says it (cli_failures)."""
    from clients.cli_failures import explain

    return ServerFailure(
        f"{error.code.name}: {explain(error.code, error.message, settings['target'], settings['tls'])}"
    )


def local_settings(job: dict) -> dict:
    """The job's settings as rules_core settles under them: its house profiles as a registry."""
    if not job.get("house"):
        return job
    from profile_files import registry_of

    return {**job, "profiles": registry_of(job["house"])}


def init_worker(job: dict, parent: int) -> None:
    settings.update(local_settings(job))
    threading.Thread(target=exit_with_parent, args=(parent,), daemon=True).start()
    if not job["local"]:
        if job.get("trace"):  # the job's span, current here: each call carries its context
            from opentelemetry import context, propagate

            context.attach(propagate.extract(job["trace"]))
        from clients.client import ScoringClient

        settings["client"] = ScoringClient(
            job["target"],
            tls=job["tls"],
            root_certificates=job["ca"],
            client_cert=job["cert"],
            client_key=job["key"],
            timeout=job["timeout"],
        )


def exit_with_parent(parent: int) -> None:
    """A worker whose coordinating process was killed (SIGKILL, the OOM killer) exits too. The
    parent's pid comes from the parent: read here, it would already be init's if the parent died
    while this worker was starting."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def settle_remote(requests: list[SettleRequest | dict]) -> list[SettleResult | dict]:
    """Settle through SettleBatch. The JSON is read by rules_core's reader, as in --local, so a
    malformed line gets the same error line either way (and it reads 2x faster than protobuf's
    ParseDict: JSON both ways is most of a client's cost)."""
    import convert
    import rules_core as rc
    from clients.errors import ScoringError
    from convert.json_read import read_settle_request

    out: list[SettleResult | dict | None] = [None] * len(requests)
    messages, positions = [], []
    for position, request in enumerate(requests):
        if is_record(request):
            out[position] = settle_record_remote(request)
            continue
        try:
            core = request if isinstance(request, SettleRequest) else read_settle_request(request)
            messages.append(convert.settle_request_message(core))
            positions.append(position)
        except rc.InvalidRequest as error:
            out[position] = error_line(request_id_of(request), str(error), error.violations)
        except Exception as error:  # a bug must cost this line only, never the job (as in --local)
            out[position] = error_line(request_id_of(request), f"internal error: {error!r}", code="INTERNAL")
    if messages:
        try:
            results = settings["client"].settle_batch(messages)
        except ScoringError as error:
            raise server_failure(error) from None
        for position, result in zip(positions, results, strict=True):
            if result.HasField("response"):
                out[position] = response_answer(result.response)
            else:
                e = result.error
                violations = [(v.field, v.description) for v in e.field_violations]
                out[position] = refusal_line(result.request_id, e.message, violations, e.code, e.reason, e.metadata)
    return out


def refusal_line(request_id, message: str, violations, code: str, reason: str, metadata) -> dict:
    """The error line of a line the server refused, as --local writes it: only a digest
    mismatch's names its reason, with its metadata in --local's order (expected, actual)."""
    if reason != "PROFILE_DIGEST_MISMATCH":
        return error_line(request_id, message, violations, code)
    ordered = {key: metadata[key] for key in ("expected", "actual") if key in metadata}
    return error_line(request_id, message, violations, code, reason, {**ordered, **metadata})


def settle_record_remote(record: dict) -> dict:
    """A hand record line through a SettleRecord call: read here first, so that a malformed
    record gets the error line --local gives it; a record the server refuses is its error line."""
    from convert.results import settle_record_response_dict

    return record_call(record, lambda message: settle_record_response_dict(settings["client"].settle_record(message)))


def review_remote(record: dict) -> dict:
    """A hand record line through a ReviewRecord call, read and refused as `settle_record_remote`'s."""
    from batch.reviews import review_answer
    from convert.advice import review_result
    from convert.advice_json import review_record_response_dict

    if "events" not in record:
        return review_answer(record)  # no hand record: the line's error, as --local writes it
    return record_call(
        record, lambda message: review_record_response_dict(review_result(settings["client"].review_record(message)))
    )


def record_call(record: dict, call) -> dict:
    """``call(message)`` of a hand record's message, the record read here first; a record the
    server refuses is its error line, a server that fails stops the job."""
    import convert
    import rules_core as rc
    from clients.errors import ScoringError
    from convert.json_read import read_settle_record_request

    try:
        message = convert.settle_record_request_message(read_settle_record_request(record))
    except rc.InvalidRequest as error:
        return error_line(request_id_of(record), str(error), error.violations)
    try:
        return call(message)
    except ScoringError as error:
        if error.violations or error.code.name in ("INVALID_ARGUMENT", "NOT_FOUND", "FAILED_PRECONDITION"):
            return refusal_line(
                request_id_of(record), error.message, error.violations, error.code.name, error.reason, error.metadata
            )
        raise server_failure(error) from None


def response_answer(message) -> SettleResult | dict:
    """The response as rules_core's result, whose line is then written as --local writes its
    own (in C where `batch.native` is built, else by rules_core's writer, which gives
    protobuf's MessageToDict dict 3x faster); an enum number rules_core does not know (a newer
    server) leaves it to protobuf's dict."""
    from convert.json_form import message_dict
    from convert.results import settle_result

    try:
        return settle_result(message)
    except KeyError:
        return message_dict(message)


def settle_chunk(chunk: tuple[int, list[bytes | None]], job: dict | None = None) -> tuple[bytes, int, dict]:
    """Settle one chunk (its first line's number, its lines as ``batch.lines`` cuts them: runs
    of lines, one object each, split here) under ``job``'s settings (`local_settings`; this
    worker's when None); returns the output lines as one block of bytes,
    their number, and the counts: one object each way, not one per line. The
    cycle collector is paused meanwhile: the chunk's requests and answers, none in a cycle, are
    held until its block is made, and the collector would walk them again and again. They are
    freed before it runs again (`_settled_chunk` returns only the block and the counts): its
    first allocation after the pause would otherwise walk them all, once a chunk."""
    with collector_paused():
        return _settled_chunk(chunk, settings if job is None else job)


def _settled_chunk(chunk: tuple[int, list[bytes | None]], job: dict) -> tuple[bytes, int, dict]:
    first, pieces = chunk
    lines = chunk_lines(pieces)
    if job.get("job") == "review":
        return _reviewed_chunk(first, lines, job)
    profile, overrides = job.get("profile"), job.get("overrides") or {}
    out, counts = [], new_counts()
    if job["local"]:  # line by line: each answer written while its request and result are fresh
        profiles = job.get("profiles")
        for number, line in enumerate(lines, start=first):
            request, error = read_line(number, line, profile, overrides)
            out.append(answer_output(error if request is None else settle_answer(request, profiles), counts))
        return b"".join(out), len(out), counts
    prepared = [read_line(number, line, profile, overrides) for number, line in enumerate(lines, start=first)]
    results = iter(settle_remote([request for request, _ in prepared if request is not None]))
    for request, error in prepared:
        out.append(answer_output(error if request is None else next(results), counts))
    return b"".join(out), len(out), counts


def _reviewed_chunk(first: int, lines: list[bytes | None], job: dict) -> tuple[bytes, int, dict]:
    """A chunk of hand records reviewed (``shmj review -o``), here or by ReviewRecord calls."""
    from batch.reviews import count_record, new_counts, review_line

    profiles, local = job.get("profiles"), job["local"]
    out, counts = [], new_counts()
    for number, line in enumerate(lines, start=first):
        if local:
            answer = review_line(number, line, profiles)
        else:
            request, error = read_line(number, line, None, {}, usual_form=False)
            answer = error if request is None else review_remote(request)
        count_record(counts, answer)
        out.append(output_line(answer))
    return b"".join(out), len(out), counts
