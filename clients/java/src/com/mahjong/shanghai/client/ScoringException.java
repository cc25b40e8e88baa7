package com.mahjong.shanghai.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.List;

/** A call the service refused: its status code, message and field violations. */
public final class ScoringException extends Exception {
    /** One wrong field: its path in the request ({@code winners[0].hand.concealed}) and what is wrong. */
    public record FieldViolation(String field, String description) {}

    private static final long serialVersionUID = 1L;

    private final Status.Code code;
    private final List<FieldViolation> violations;

    private ScoringException(StatusRuntimeException cause, List<FieldViolation> violations) {
        super(cause.getStatus().getCode() + ": " + cause.getStatus().getDescription(), cause);
        this.code = cause.getStatus().getCode();
        this.violations = List.copyOf(violations);
    }

    /**
     * The refusal with the violations of every {@code google.rpc.BadRequest} in its status
     * details: the {@code google.rpc.Status} that the {@code grpc-status-details-bin} trailer holds.
     */
    public static ScoringException of(StatusRuntimeException e) {
        List<FieldViolation> violations = new ArrayList<>();
        com.google.rpc.Status status = StatusProto.fromThrowable(e);
        for (Any detail : status == null ? List.<Any>of() : status.getDetailsList()) {
            if (detail.is(BadRequest.class)) {
                try {
                    for (BadRequest.FieldViolation v : detail.unpack(BadRequest.class).getFieldViolationsList()) {
                        violations.add(new FieldViolation(v.getField(), v.getDescription()));
                    }
                } catch (InvalidProtocolBufferException unreadable) {
                    violations.add(new FieldViolation("", "unreadable BadRequest detail: " + unreadable.getMessage()));
                }
            }
        }
        return new ScoringException(e, violations);
    }

    /** The gRPC status code: INVALID_ARGUMENT, UNAVAILABLE, DEADLINE_EXCEEDED, ... */
    public Status.Code code() {
        return code;
    }

    /** The server's description of the refusal, such as {@code invalid request}. */
    public String description() {
        return ((StatusRuntimeException) getCause()).getStatus().getDescription();
    }

    /** The field violations; empty for a refusal that is not about the request's fields. */
    public List<FieldViolation> violations() {
        return violations;
    }
}
