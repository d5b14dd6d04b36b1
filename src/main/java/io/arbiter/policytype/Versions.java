package io.arbiter.policytype;

import io.arbiter.decision.DecisionException;

import java.util.Optional;

/** The version rules every policy type shares: unknown and UNSUPPORTED are refused, DEPRECATED warns. */
public final class Versions {

    private Versions() {
    }

    /** The warning to give for {@code version}, if any; throws when the version may not be used. */
    public static Optional<String> check(PolicyType type, String version, String where, DecisionException.Code code) {
        PolicyTypeVersion known = type.versions().stream().filter(v -> v.version().equals(version)).findFirst()
                .orElseThrow(() -> DecisionCall.refusal(code, where, type.name() + " has no version " + version
                        + "; known versions: " + type.versions().stream().map(PolicyTypeVersion::version).toList()));
        return switch (known.status()) {
            case UNSUPPORTED -> throw DecisionCall.refusal(code, where, type.name() + " version " + version
                    + " is UNSUPPORTED since " + known.since() + "; use " + latestSupported(type));
            case DEPRECATED -> Optional.of(type.name() + " version " + version + " is DEPRECATED since "
                    + known.since() + "; migrate to " + latestSupported(type));
            default -> Optional.empty();
        };
    }

    /** The newest SUPPORTED version, else the newest one: what a document without a version means. */
    public static String latestSupported(PolicyType type) {
        return type.versions().stream().filter(v -> v.status() == SupportStatus.SUPPORTED)
                .reduce((first, second) -> second)
                .orElse(type.versions().get(type.versions().size() - 1)).version();
    }
}
