"""ScoringService: converts messages, calls rules_core, converts back. Nothing else.

SettleBatch reads its entries from the body's bytes with `convert.proto_bytes` (compiled on the
hot path), and from the message those entries that reader leaves to it. The server imports
nothing of the batch jobs: every wire form's reading is in `convert`.
"""

from __future__ import annotations

import asyncio

import grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc as svc_grpc

import convert
import rules_core as rc
from convert import advice as convert_advice
from convert.profile_digest import profile_digest
from convert.proto_bytes import read_batch
from rules_core.errors import InvalidRequest, ProfileDigestMismatch
from rules_core.overrides import resolve_profile
from rules_core.waits import judge_win
from server import errors, garbage, metrics, tracing
from server.call_book import ANSWER_LEGAL, answered_under
from server.config import ServerConfig
from server.drain import batch_chunk
from server.off_loop import in_rules_thread
from server.parsed_body import ParsedBody
from server.profiles import HouseProfiles

SERVICE_NAME = svc.DESCRIPTOR.services_by_name["ScoringService"].full_name

# A batch yields to the event loop (health checks, other calls) and checks its deadline this often:
# 32 hands are about 1.7 ms of work, a turn of the loop 8 us (0.5%); 256 held small calls up to
# 14 ms per batch in flight, and 4 batches cut their throughput 4-5x (docs/RELIABILITY.md).
BATCH_CHUNK = 32
STREAM_TALLY_EVERY = 256  # a stream's settlements reach the metrics this often


class ScoringService(svc_grpc.ScoringServiceServicer):
    """Every answer is checked against the message limit before it is sent: gRPC must never be
    handed a larger one (in a stream, that crashed the worker)."""

    def __init__(self, config: ServerConfig, profiles: HouseProfiles | None = None):
        self.max_batch_size = config.max_batch_size
        self.max_answer_bytes = config.max_message_bytes
        # The built-in and house profiles; each call reads `.registry` once, so a reload never
        # changes the profiles of a call in flight.
        self.profiles = profiles if profiles is not None else HouseProfiles()

    async def _fitting(self, context, answer):
        """``answer`` (a message or its bytes), or RESOURCE_EXHAUSTED when it is over the limit."""
        size = len(answer) if isinstance(answer, bytes) else answer.ByteSize()
        if size > self.max_answer_bytes:
            await errors.abort(context, errors.answer_too_large(size, self.max_answer_bytes))
        return answer

    @staticmethod
    async def _answer(context, method: str, compute, in_thread: bool = False):
        """``compute()``, or INVALID_ARGUMENT (counted as rejected) when the input is malformed;
        ``in_thread``: in one of the worker's rules threads, off the event loop."""
        try:
            return await in_rules_thread(compute) if in_thread else compute()
        except InvalidRequest as error:
            metrics.rejected(method).inc()
            await errors.abort(context, errors.invalid_request(error))
        except ProfileDigestMismatch as error:
            metrics.rejected(method).inc()
            await errors.abort(context, errors.profile_digest_mismatch(error))

    async def Settle(self, request, context) -> bytes:
        """The serialised SettleResponse (see `server.preserialized`). What `errors.guarded`, `_answer`
        and `_fitting` do, inline: this runs on every unary call, and each coroutine, lambda and
        wrapper costs a worker CPU (bench.unary_parts)."""
        try:
            core = convert.settle_request(request)
            result = rc.settle(core, self.profiles.registry)
            metrics.record_settlement(core.outcome, result)
            answered_under(result.profile_digest)
            if tracing.TRACER is not None:
                ANSWER_LEGAL.set(any(w.legal for w in result.winners))
            answer = convert.settle_response_bytes(result)
        except InvalidRequest as error:
            metrics.rejected("Settle").inc()
            await errors.abort(context, errors.invalid_request(error))
        except ProfileDigestMismatch as error:
            metrics.rejected("Settle").inc()
            await errors.abort(context, errors.profile_digest_mismatch(error))
        except Exception:  # a bug must not take the process down or leak a traceback
            await errors.internal_error(context, "Settle")
        if len(answer) > self.max_answer_bytes:
            await errors.abort(context, errors.answer_too_large(len(answer), self.max_answer_bytes))
        return answer

    @errors.guarded
    async def SettleBatch(self, request, context) -> bytes:
        """The serialised SettleBatchResponse (see `server.preserialized`). Entries in the usual
        form are read from the body's bytes (`convert.proto_bytes.read_batch`), the rest from the message.
        The cycle collector is paused while batches are settled (`server.garbage.BatchPause`):
        resumed after `_settle_batch` has returned, so what the batch built is freed, never walked."""
        with garbage.BATCHES.during_batch(len(request.requests)):
            return await self._settle_batch(request, context)

    async def _settle_batch(self, request, context) -> bytes:
        requests = request.requests
        count = len(requests)
        if count > self.max_batch_size:
            metrics.REJECTED.labels("SettleBatch").inc()
            await errors.abort(context, errors.batch_too_large(count, self.max_batch_size))
        metrics.BATCH_SIZE.labels("SettleBatch").observe(count)
        cores = read_batch(request.body) if isinstance(request, ParsedBody) else None
        if cores is None or len(cores) != count:
            cores = [None] * count
        entries = []
        add = entries.append
        tally = metrics.SettlementTally()
        registry = self.profiles.registry
        settle_one, batch_entry, limit = self._settle_one, convert.batch_entry, self.max_answer_bytes
        total = 0
        start = 0
        while start < count:
            if start:
                await self._pause(context)
            end = start + batch_chunk(BATCH_CHUNK)  # short while draining (see `server.drain`)
            for index, core in enumerate(cores[start:end], start):
                if core is None:  # not in the usual form: read from the message
                    message = requests[index]
                    request_id, outcome = message.request_id, settle_one(message, tally, registry)
                else:
                    request_id, outcome = core.request_id, settle_one(None, tally, registry, core)
                entry = batch_entry(request_id, outcome)
                if len(entry) > limit:
                    entry = batch_entry(request_id, errors.answer_too_large(len(entry), limit))
                total += len(entry)
                add(entry)
            start = end
        tally.flush("SettleBatch")
        if total > limit:
            await errors.abort(context, errors.answer_too_large(total, limit, "; send fewer requests"))
        return convert.settle_batch_response(entries)

    @staticmethod
    def _settle_one(
        message, tally: metrics.SettlementTally, registry, core: rc.SettleRequest | None = None
    ) -> rc.SettleResult | errors.Failure:
        """The settlement of one request of a batch or stream (its message, or ``core``: the
        request read already), or why the request is malformed."""
        try:
            if core is None:
                core = convert.settle_request(message)
            result = rc.settle(core, registry)
        except InvalidRequest as error:
            tally.rejected += 1
            return errors.invalid_request(error)
        except ProfileDigestMismatch as error:
            tally.rejected += 1
            return errors.profile_digest_mismatch(error)
        tally.add(core.outcome, result)
        return result

    @staticmethod
    async def _pause(context) -> None:
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            await errors.abort(context, errors.deadline_exceeded("deadline exceeded during the batch"))
        await asyncio.sleep(0)

    async def SettleStream(self, request_iterator, context):
        count = 0
        tally = metrics.SettlementTally()
        registry = self.profiles.registry  # a stream keeps the profiles it started with
        try:
            limit = self.max_answer_bytes
            async for message in request_iterator:
                count += 1
                if isinstance(message, errors.Failure):  # a message too large to read (`convert.limits`)
                    tally.rejected += 1
                    request_id, outcome = "", message
                else:
                    request_id, outcome = message.request_id, self._settle_one(message, tally, registry)
                answer = convert.stream_response(request_id, outcome)
                size = answer.ByteSize()
                if size > limit:
                    answer = convert.stream_response(request_id, errors.answer_too_large(size, limit))
                    if answer.ByteSize() > limit:  # not even the error fits: end the call instead
                        await errors.abort(context, errors.answer_too_large(size, limit))
                yield answer
                if count % STREAM_TALLY_EVERY == 0:
                    tally.flush("SettleStream")
                    tally = metrics.SettlementTally()
        except (grpc.aio.AbortError, asyncio.CancelledError):
            raise
        except Exception:  # a bug must not leak a traceback: log it, answer INTERNAL (as errors.guarded does)
            await errors.internal_error(context, "SettleStream")
        finally:
            tally.flush("SettleStream")
            metrics.BATCH_SIZE.labels("SettleStream").observe(count)

    @errors.guarded
    async def CheckWin(self, request, context):
        registry = self.profiles.registry
        core = await self._answer(context, "CheckWin", lambda: convert.check_win_request(request))
        result, digest = await self._answer(context, "CheckWin", lambda: judge_win(core, registry))
        metrics.record_winner(core.profile, result)
        answered_under(digest)
        if tracing.TRACER is not None:
            ANSWER_LEGAL.set(result.legal)
        return await self._fitting(context, convert.check_win_response(request.request_id, result, digest))

    @errors.guarded
    async def ListWaits(self, request, context):
        registry = self.profiles.registry
        waits = await self._answer(
            context, "ListWaits", lambda: rc.list_waits(convert.list_waits_request(request), registry)
        )
        answered_under(waits.profile_digest)
        return await self._fitting(context, convert.list_waits_response(waits))

    @errors.guarded
    async def SettleRecord(self, request, context):
        """Replay a hand record (RULES.md section 13) and settle what its events imply."""
        registry = self.profiles.registry
        result = await self._answer(
            context,
            "SettleRecord",
            lambda: rc.settle_record(convert.settle_record_request(request, registry), registry),
        )
        metrics.record_replayed(result)
        answered_under(result.settlement.profile_digest)
        return await self._fitting(context, convert.settle_record_response(result))

    @errors.guarded
    async def Advise(self, request, context):
        """How far a holding is from a legal win, and what to discard (RULES.md section 15)."""
        registry = self.profiles.registry
        result = await self._answer(
            context, "Advise", lambda: rc.advise(convert_advice.advise_request(request), registry)
        )
        answered_under(result.profile_digest)
        return await self._fitting(context, convert_advice.advise_response(result))

    @errors.guarded
    async def ReviewRecord(self, request, context):
        """Review a hand record discard by discard (RULES.md section 15.6)."""
        registry = self.profiles.registry
        result = await self._answer(
            context,
            "ReviewRecord",
            lambda: rc.review_record(convert.settle_record_request(request, registry), registry),
            in_thread=True,  # up to a second of rules from a small body: the loop answers others meanwhile
        )
        answered_under(result.profile_digest)
        return await self._fitting(context, convert_advice.review_record_response(result))

    @errors.guarded
    async def GetProfile(self, request, context):
        registry = self.profiles.registry
        violations = []
        overrides = None
        if request.HasField("overrides"):
            violations = convert.Violations()
            overrides = convert.overrides(request.overrides, "overrides", violations)
        if not violations:
            profile, violations = resolve_profile(request.name, overrides, registry)
        if violations and violations[0].field == "profile":
            description = InvalidRequest(violations[:1]).violations[0].description
            await errors.abort(context, errors.unknown_profile(description, request.name))
        if violations:
            await errors.abort(context, errors.invalid_request(InvalidRequest(violations)))
        answered_under(profile_digest(profile))
        return await self._fitting(context, convert.get_profile_response(profile, registry.entry(request.name)))

    @errors.guarded
    async def ListProfiles(self, request, context):
        return await self._fitting(context, convert.list_profiles_response(self.profiles.registry.entries))
