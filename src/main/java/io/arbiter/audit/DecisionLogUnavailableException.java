package io.arbiter.audit;

/** The decision log cannot take a record and the log is required: the decision is refused (503). */
public class DecisionLogUnavailableException extends RuntimeException {

    public DecisionLogUnavailableException(String message) {
        super(message);
    }
}
