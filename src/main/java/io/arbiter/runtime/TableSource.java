package io.arbiter.runtime;

import io.arbiter.decision.Snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where {@code PUT /v1/decision-tables/{type}/{name}} writes a decision table: the file under {@code --decision-tables}
 * ({@link #files}), the ConfigMap {@code <instance>-rules-<folder>} (the Kubernetes source), or nowhere when the
 * tables are the packaged ones ({@link #packaged}: a 409 naming how to serve them from a source that can be written).
 * A write is given the candidate snapshot already built and checked, and answers once this replica serves it.
 */
public interface TableSource {

    /**
     * Writes {@code content} as the table {@code <folder>/<file>}, with {@code liveRevision} the table's revision this
     * replica serves (the If-Match already matched it): a source holding another revision throws
     * {@link Decisions.StaleRevisionException}. Answers a note on where the change lives, or null.
     */
    String write(String folder, String file, byte[] content, String liveRevision, String type, Snapshot candidate);

    /** A table's revision, its ETag: a hash of its bytes. */
    static String revisionOf(byte[] content) {
        try {
            return "t-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The live snapshot with the candidate's rule bases of the types that read {@code folder}: a policy replaced, or a
     * reload applied, since the candidate was built stays.
     */
    static Snapshot onLive(Decisions decisions, Snapshot candidate, String folder) {
        Snapshot live = decisions.snapshot();
        java.util.Map<String, io.arbiter.engine.CompiledRuleBase> ruleBases = new java.util.LinkedHashMap<>(live.ruleBases());
        for (io.arbiter.policytype.PolicyType type : decisions.registry().types()) {
            if (type.ruleSet().folders().contains(folder) && candidate.ruleBases().containsKey(type.name())) {
                ruleBases.put(type.name(), candidate.ruleBase(type.name()));
            }
        }
        return new Snapshot(live.policy(), ruleBases, live.catalog(), live.typeInstances(), live.platformTypeInstances(),
                live.policyOrder());
    }

    /** The packaged tables: nothing to write to, so an edit is a 409 that says how to serve writable tables. */
    static TableSource packaged() {
        return (folder, file, content, liveRevision, type, candidate) -> {
            throw new PolicySource.SourceOfTruthException("the decision table " + folder + "/" + file + " is packaged in"
                    + " the server, which has no source to write it to: serve with --rules DIR --decision-tables DIR (the"
                    + " files are then written) or --source kubernetes (the ConfigMap <instance>-rules-" + folder + ")");
        };
    }

    /**
     * {@code --decision-tables DIR}: the file is written atomically (a temporary file renamed over it), then the
     * candidate goes live here, as a reload would; with {@code --watch} the watcher sees the same content and the
     * rule base it builds is the same one.
     */
    static TableSource files(Decisions decisions, Path tablesRoot) {
        return new TableSource() {
            @Override
            public synchronized String write(String folder, String file, byte[] content, String liveRevision, String type,
                                             Snapshot candidate) {
                Path target = tablesRoot.toAbsolutePath().resolve(folder).resolve(file);
                try {
                    if (Files.exists(target) && !revisionOf(Files.readAllBytes(target)).equals(liveRevision)) {
                        throw new Decisions.StaleRevisionException("the decision table changed: the file " + target
                                + " holds revision " + revisionOf(Files.readAllBytes(target)) + ", not the " + liveRevision
                                + " this replica serves; GET it again");
                    }
                } catch (IOException e) {
                    throw new PolicySource.SourceUnavailableException("the decision table file " + target + " cannot be read,"
                            + " so it is unchanged", e);
                }
                PolicyFileSource.writeAtomically(target, content,
                        "the decision table file " + target + " cannot be written, so the table is unchanged: ");
                decisions.swap(onLive(decisions, candidate, folder));
                return null;
            }
        };
    }
}
