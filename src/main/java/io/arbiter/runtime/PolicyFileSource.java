package io.arbiter.runtime;

import io.arbiter.decision.RevisionMatch;
import io.arbiter.policy.PolicyDocument;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --policy FILE} without {@code --watch}: a PUT writes the file atomically (a temporary file beside it, renamed
 * over it) before the new policy serves, so a restart serves it too. A file that cannot be written refuses the PUT and
 * the live policy stays.
 */
public final class PolicyFileSource implements PolicySource {

    private final Decisions decisions;
    private final Path file;

    public PolicyFileSource(Decisions decisions, Path file) {
        this.decisions = decisions;
        this.file = file.toAbsolutePath();
    }

    @Override
    public synchronized Replaced replace(byte[] body, String contentType, Optional<RevisionMatch> ifMatch) {
        PolicyDocument replaced = decisions.replacePolicy(body, contentType, ifMatch, () -> write(body));
        return new Replaced(replaced, null);
    }

    /** Writes {@code body} to a temporary file in the policy's folder, then renames it over the policy. */
    private void write(byte[] body) {
        Path folder = file.getParent();
        Path temporary = null;
        try {
            temporary = Files.createTempFile(folder, "." + file.getFileName() + ".", ".tmp");
            Files.write(temporary, body);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // the write already failed; that is what is reported
                }
            }
            throw new SourceUnavailableException("the policy file " + file + " cannot be written, so the policy is unchanged: "
                    + (e instanceof java.nio.file.AccessDeniedException ? "permission denied" : "an I/O error"), e);
        }
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("kind", "file");
        status.put("policyFile", file.toString());
        return status;
    }
}
