package io.arbiter.runtime;

import io.arbiter.decision.RevisionMatch;
import io.arbiter.policy.PolicyDocument;

import java.io.IOException;
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
        PolicyDocument replaced = decisions.replacePolicy(body, contentType, ifMatch, () -> writeAtomically(file, body,
                "the policy file " + file + " cannot be written, so the policy is unchanged: "));
        return new Replaced(replaced, null);
    }

    /**
     * Writes {@code content} to a temporary file in {@code target}'s folder, then renames it over {@code target}. A
     * failure leaves no temporary file and throws {@link SourceUnavailableException}: {@code failed} and why.
     */
    static void writeAtomically(Path target, byte[] content, String failed) {
        Path temporary = null;
        try {
            temporary = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
            Files.write(temporary, content);
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // the write already failed; that is what is reported
                }
            }
            throw new SourceUnavailableException(failed
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
