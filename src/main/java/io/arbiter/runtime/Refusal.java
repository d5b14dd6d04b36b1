package io.arbiter.runtime;

import io.arbiter.audit.DecisionLogUnavailableException;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.DecisionException.Code;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Problem;
import io.arbiter.engine.DecisionDeadline;

import java.util.List;
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
        if (failure instanceof DecisionLogUnavailableException unavailable) {
            return Optional.of(new Refusal(Code.UNAVAILABLE, unavailable.getMessage(), List.of()));
        }
        if (failure instanceof Decisions.UnknownTargetException unknown) {
            return Optional.of(new Refusal(Code.NOT_FOUND, unknown.getMessage(), List.of()));
        }
        if (failure instanceof Decisions.StaleRevisionException stale) {
            return Optional.of(new Refusal(Code.POLICY_CONFLICT, stale.getMessage(), List.of()));
        }
        if (failure instanceof io.arbiter.decision.WorkAdmission.RefusedForNowException refused) {
            return Optional.of(new Refusal(Code.TOO_LARGE_FOR_NOW, refused.getMessage(), List.of()));
        }
        if (failure instanceof PolicySource.SourceOfTruthException elsewhere) {
            return Optional.of(new Refusal(Code.SOURCE_ELSEWHERE, elsewhere.getMessage(), List.of()));
        }
        if (failure instanceof PolicySource.SourceUnavailableException unavailable) {
            return Optional.of(new Refusal(Code.UNAVAILABLE, unavailable.getMessage(), List.of()));
        }
        return Optional.empty();
    }
}
