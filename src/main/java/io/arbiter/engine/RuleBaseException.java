package io.arbiter.engine;

/** Rules or decision tables that cannot be used: they fail to compile, are misnamed, or yield no rules. */
public class RuleBaseException extends RuntimeException {

    public RuleBaseException(String message) {
        super(message);
    }

    public RuleBaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
