package io.arbiter.policytype;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One version of a policy type and its support-status history, oldest first. The last entry is the current status.
 */
public record PolicyTypeVersion(String version, List<StatusChange> statusHistory) {

    private static final Pattern SINCE = Pattern.compile("^\\d{4}\\.(0[1-9]|1[0-2])$");

    /** A status a version entered, and since when ({@code yyyy.mm}). */
    public record StatusChange(SupportStatus status, String since) {
        public StatusChange {
            Objects.requireNonNull(status, "status");
            if (since == null || !SINCE.matcher(since).matches()) {
                throw new IllegalArgumentException("since must be yyyy.mm, got " + since);
            }
        }
    }

    public PolicyTypeVersion {
        Objects.requireNonNull(version, "version");
        statusHistory = List.copyOf(statusHistory);
        if (statusHistory.isEmpty()) {
            throw new IllegalArgumentException("version " + version + " has no support status");
        }
    }

    public static PolicyTypeVersion of(String version, StatusChange... history) {
        return new PolicyTypeVersion(version, List.of(history));
    }

    public static StatusChange since(SupportStatus status, String yearMonth) {
        return new StatusChange(status, yearMonth);
    }

    @com.fasterxml.jackson.annotation.JsonProperty("status")
    public SupportStatus status() {
        return statusHistory.get(statusHistory.size() - 1).status();
    }

    @JsonIgnore
    public String since() {
        return statusHistory.get(statusHistory.size() - 1).since();
    }
}
