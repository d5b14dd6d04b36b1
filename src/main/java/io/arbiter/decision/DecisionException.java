package io.arbiter.decision;

import io.arbiter.document.Problem;

import java.util.List;

/** A decision that cannot be made because of its input; carries the contract's error code and located details. */
public class DecisionException extends RuntimeException {

    /** The contract's error codes, each with its HTTP status: used alike by the server and the offline tools. */
    public enum Code {
        INVALID_REQUEST(400), INVALID_POLICY(422), NOT_FOUND(404), POLICY_CONFLICT(412),
        /** The service could not decide in time or record the decision: the contract's INTERNAL, to retry later. */
        UNAVAILABLE(503),
        /** A policy written where it is not kept: the source of truth is elsewhere (the contract's POLICY_CONFLICT). */
        SOURCE_ELSEWHERE(409),
        /** More than the server can hold at once beside what it holds now, to retry shortly (PAYLOAD_TOO_LARGE). */
        TOO_LARGE_FOR_NOW(413),
        INTERNAL(500);

        private final int status;

        Code(int status) {
            this.status = status;
        }

        public int status() {
            return status;
        }

        /** The code as the contract spells it in an error body. */
        public String wire() {
            return switch (this) {
                case UNAVAILABLE -> INTERNAL.name();
                case SOURCE_ELSEWHERE -> POLICY_CONFLICT.name();
                case TOO_LARGE_FOR_NOW -> "PAYLOAD_TOO_LARGE";
                default -> name();
            };
        }
    }

    private final Code code;
    private final List<Problem> problems;

    public DecisionException(Code code, String message, List<Problem> problems) {
        super(message);
        this.code = code;
        this.problems = List.copyOf(problems);
    }

    public Code code() {
        return code;
    }

    public List<Problem> problems() {
        return problems;
    }
}
