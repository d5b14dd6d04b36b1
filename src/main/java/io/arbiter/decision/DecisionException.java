package io.arbiter.decision;

import io.arbiter.document.Problem;

import java.util.List;

/** A decision that cannot be made because of its input; carries the contract's error code and located details. */
public class DecisionException extends RuntimeException {

    public enum Code { INVALID_REQUEST, INVALID_POLICY }

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
