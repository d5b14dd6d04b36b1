package io.arbiter.runtime;

import io.arbiter.audit.DecisionLogUnavailableException;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.DecisionException.Code;
import io.arbiter.decision.WorkAdmission;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Problem;
import io.arbiter.engine.DecisionDeadline;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A request the service refuses, as the server answers it and the offline tools (suites, impact, replay, decide)
 * report it: the one place that maps a failure to the contract's error code; the HTTP status is the code's own
 * ({@link Code#status}).
 */
public record Refusal(Code code, String message, List<Problem> problems) {

    public Refusal {
        problems = List.copyOf(problems);
    }

    public int status() {
        return code.status();
    }

    /** The refusal {@code failure} stands for, or empty for a failure of the service itself (500, logged). */
    public static Optional<Refusal> of(Throwable failure) {
        if (failure instanceof DecisionException decision) {
            return Optional.of(new Refusal(decision.code(), decision.getMessage(), decision.problems()));
        }
        if (failure instanceof DocumentException document) {
            return Optional.of(new Refusal(Code.INVALID_REQUEST, document.getMessage(), document.problems()));
        }
        if (failure instanceof DecisionDeadline.ExceededException exceeded) {
            // past the deadline the service could not decide in time (busy, or a costly request): retry later
            return Optional.of(new Refusal(exceeded.isDeadline() ? Code.UNAVAILABLE : Code.INVALID_REQUEST,
                    exceeded.getMessage(), List.of()));
        }
        return CODES.entrySet().stream().filter(entry -> entry.getKey().isInstance(failure)).findFirst()
                .map(entry -> new Refusal(entry.getValue(), failure.getMessage(), List.of()));
    }

    /** The failures that are refusals in their own words, with no problems to list, and their codes. */
    private static final Map<Class<? extends RuntimeException>, Code> CODES = Map.of(
            DecisionLogUnavailableException.class, Code.UNAVAILABLE,
            Decisions.UnknownTargetException.class, Code.NOT_FOUND,
            Decisions.StaleRevisionException.class, Code.POLICY_CONFLICT,
            WorkAdmission.RefusedForNowException.class, Code.TOO_LARGE_FOR_NOW,
            PolicySource.SourceOfTruthException.class, Code.SOURCE_ELSEWHERE,
            PolicySource.SourceUnavailableException.class, Code.UNAVAILABLE);
}
