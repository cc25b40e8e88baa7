package com.mahjong.shanghai.client;

import com.mahjong.shanghai.v1.ScoringServiceGrpc;
import com.mahjong.shanghai.v1.SettleBatchRequest;
import com.mahjong.shanghai.v1.SettleBatchResponse;
import com.mahjong.shanghai.v1.SettleRequest;
import com.mahjong.shanghai.v1.SettleResponse;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A blocking client of mahjong.shanghai.v1.ScoringService over plaintext gRPC.
 *
 * <p>Every call has a deadline, and a refused call throws a {@link ScoringException} that holds
 * the field violations of its {@code google.rpc.BadRequest}. The channel retries UNAVAILABLE with
 * the same service config as the Python client ({@code clients.retry_service_config()}).
 */
public final class ScoringClient implements AutoCloseable {
    public static final String SERVICE = "mahjong.shanghai.v1.ScoringService";

    private final ManagedChannel channel;
    private final ScoringServiceGrpc.ScoringServiceBlockingStub stub;
    private final Duration deadline;

    /**
     * A client of {@code target} ({@code host:port}, or a gRPC URI such as {@code dns:///host:port})
     * with a deadline per call; an {@link IllegalArgumentException} names a target that is neither.
     */
    public ScoringClient(String target, Duration deadline) {
        checkTarget(target);
        try {
            this.channel = ManagedChannelBuilder.forTarget(target)
                    .usePlaintext()
                    .defaultServiceConfig(retryServiceConfig())
                    .enableRetry()
                    .build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("target " + target + ": " + e.getMessage(), e);
        }
        this.stub = ScoringServiceGrpc.newBlockingStub(channel);
        this.deadline = deadline;
    }

    /** HOST:PORT with a port from 1 to 65535; a URI (a scheme, then ":/") is left to gRPC's resolvers. */
    private static void checkTarget(String target) {
        if (target.contains(":/")) {
            return;
        }
        int colon = target.lastIndexOf(':');
        String port = colon < 0 ? "" : target.substring(colon + 1);
        if (colon < 1 || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("target " + (target.isEmpty() ? "''" : target)
                    + ": expected HOST:PORT with a port from 1 to 65535, or a gRPC URI such as dns:///HOST:PORT");
        }
    }

    /**
     * gRPC's retry policy: UNAVAILABLE retried with exponential backoff on every method, four
     * attempts in all. grpc-java reads JSON numbers as doubles.
     */
    public static Map<String, ?> retryServiceConfig() {
        Map<String, ?> retryPolicy = Map.of(
                "maxAttempts", 4.0,
                "initialBackoff", "0.1s",
                "maxBackoff", "2s",
                "backoffMultiplier", 2.0,
                "retryableStatusCodes", List.of("UNAVAILABLE"));
        Map<String, ?> method = Map.of("name", List.of(Map.of("service", SERVICE)), "retryPolicy", retryPolicy);
        return Map.of("methodConfig", List.of(method));
    }

    /** Settles one hand; an illegal win is an answer ({@code legal = false}), not an exception. */
    public SettleResponse settle(SettleRequest request) throws ScoringException {
        try {
            return stub.withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS).settle(request);
        } catch (StatusRuntimeException e) {
            throw ScoringException.of(e);
        }
    }

    /** Settles many hands in one call; a batch needs a deadline that grows with its size. */
    public SettleBatchResponse settleBatch(SettleBatchRequest batch, Duration batchDeadline) throws ScoringException {
        try {
            return stub.withDeadlineAfter(batchDeadline.toNanos(), TimeUnit.NANOSECONDS).settleBatch(batch);
        } catch (StatusRuntimeException e) {
            throw ScoringException.of(e);
        }
    }

    /**
     * Settles one hand, calling again while the service is UNAVAILABLE (not started yet,
     * restarting) for up to {@code patience}: backoff from 0.2 s doubling to 2 s. Each refusal
     * is passed to {@code onUnavailable} before the next try. Settling is a pure function of the
     * request, so a repeated call is safe; any other error is thrown at once.
     */
    public SettleResponse settleWhenAvailable(
            SettleRequest request, Duration patience, Consumer<ScoringException> onUnavailable)
            throws ScoringException, InterruptedException {
        long giveUp = System.nanoTime() + patience.toNanos();
        long backoffMillis = 200;
        while (true) {
            try {
                return settle(request);
            } catch (ScoringException e) {
                if (!unreached(e) || System.nanoTime() + backoffMillis * 1_000_000 > giveUp) {
                    throw e;
                }
                onUnavailable.accept(e);
            }
            Thread.sleep(backoffMillis);
            backoffMillis = Math.min(backoffMillis * 2, 2_000);
            channel.resetConnectBackoff(); // try to connect now, not at the channel's own next attempt
        }
    }

    /**
     * Whether a failed call never reached the service: UNAVAILABLE, or a deadline that passed
     * while the channel was still connecting (on a loaded host the channel's own retries of a
     * refused connection can outlast a call's deadline).
     */
    private boolean unreached(ScoringException e) {
        return e.code() == Status.Code.UNAVAILABLE
                || (e.code() == Status.Code.DEADLINE_EXCEEDED && channel.getState(false) != ConnectivityState.READY);
    }

    /** Closes the channel, waiting up to 5 s for calls in flight. */
    @Override
    public void close() {
        try {
            channel.shutdown().awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            channel.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
