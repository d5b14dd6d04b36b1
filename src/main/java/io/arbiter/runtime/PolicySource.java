package io.arbiter.runtime;

import io.arbiter.decision.RevisionMatch;
import io.arbiter.policy.PolicyDocument;

import java.util.Map;
import java.util.Optional;

/**
 * Where the served policy and rules come from, and so where {@code PUT /v1/policy} writes: no replica keeps a change
 * that its source does not. Implementations: the embedded default ({@link #inProcess}), a policy file
 * ({@link PolicyFileSource}), watched files ({@link #watchedFiles}), and the ConfigMaps of the Kubernetes source
 * (which implements it from a package of its own).
 */
public interface PolicySource extends AutoCloseable {

    /** A replaced policy as this replica now serves it; {@code note} says where the change lives, or null. */
    record Replaced(PolicyDocument policy, String note) {
    }

    /**
     * Replaces the global policy at the source and answers once this replica serves it. An invalid policy throws a
     * {@code DecisionException} (422), a stale {@code ifMatch} {@link Decisions.StaleRevisionException} (412), a
     * source that is not written through the API {@link SourceOfTruthException} (409).
     */
    Replaced replace(byte[] body, String contentType, Optional<RevisionMatch> ifMatch);

    /** What {@code GET /v1/status} shows of the source ({@code kind} first). */
    Map<String, Object> status();

    /** True while the source cannot be reached and the last content it gave keeps serving. */
    default boolean stale() {
        return false;
    }

    @Override
    default void close() {
    }

    /** A write refused because the policy lives elsewhere: 409, naming the source of truth. */
    final class SourceOfTruthException extends RuntimeException {
        public SourceOfTruthException(String message) {
            super(message);
        }
    }

    /** The source cannot take the change now (unreachable, unwritable, not yet applied here): 503, nothing changed. */
    final class SourceUnavailableException extends RuntimeException {
        public SourceUnavailableException(String message) {
            super(message);
        }

        public SourceUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The embedded default: nothing to write to, so a change lives in this process only, and its answer says so. */
    static PolicySource inProcess(Decisions decisions) {
        return new PolicySource() {
            @Override
            public Replaced replace(byte[] body, String contentType, Optional<RevisionMatch> ifMatch) {
                return new Replaced(decisions.replacePolicy(body, contentType, ifMatch),
                        "the embedded default has no source to write to: this change lives only in this process, and a"
                                + " restart or another replica serves the embedded policy");
            }

            @Override
            public Map<String, Object> status() {
                return Map.of("kind", "embedded");
            }
        };
    }

    /** {@code --watch}: the files are the source of truth, so a PUT is a 409 that names them. */
    static PolicySource watchedFiles(java.nio.file.Path policyFile) {
        String where = policyFile == null ? "the watched files" : "the watched file " + policyFile.toAbsolutePath();
        return new PolicySource() {
            @Override
            public Replaced replace(byte[] body, String contentType, Optional<RevisionMatch> ifMatch) {
                throw new SourceOfTruthException("the policy is served from " + where + " (serve --watch), its source of"
                        + " truth: change it there, and every replica that watches it reloads it");
            }

            @Override
            public Map<String, Object> status() {
                Map<String, Object> status = new java.util.LinkedHashMap<>();
                status.put("kind", "files");
                status.put("policyFile", policyFile == null ? null : policyFile.toAbsolutePath().toString());
                return status;
            }
        };
    }
}
