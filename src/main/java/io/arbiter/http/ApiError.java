package io.arbiter.http;

import io.arbiter.document.Problem;

import java.util.List;

/** The contract's error body: {@code {"error": {"code", "message", "details": [...]}}}, with its HTTP status. */
public final class ApiError extends RuntimeException {

    public record Body(Error error) {
    }

    public record Error(String code, String message, List<Problem> details) {
    }

    private final int status;
    private final String code;
    private final List<Problem> details;

    public ApiError(int status, String code, String message, List<Problem> details) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = List.copyOf(details);
    }

    public ApiError(int status, String code, String message) {
        this(status, code, message, List.of());
    }

    public int status() {
        return status;
    }

    public Body body() {
        return new Body(new Error(code, getMessage(), details));
    }
}
