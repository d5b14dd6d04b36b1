package io.arbiter.engine;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The names of one rule as fired rules show them: {@code rule} (qualified: {@code package.name}), {@code name} and
 * {@code package}, each JSON-encoded once. A decision fires dozens of rules (thousands for a large one) and every
 * response writes all three names of each firing: encoding them, or even looking the encodings up, per firing was a
 * measurable part of what auditing costs (AuditCostBenchmark).
 */
public final class RuleName {

    /** Rule bases reloaded with many renamed rules: past this many distinct names, new ones are not kept. */
    private static final int KEPT = 10_000;
    private static final Map<String, Map<String, RuleName>> KNOWN = new ConcurrentHashMap<>();
    private static final AtomicInteger KEPT_COUNT = new AtomicInteger();

    private final String packageName;
    private final String name;
    private final String qualified;
    private final SerializedString packageJson;
    private final SerializedString nameJson;
    private final SerializedString qualifiedJson;
    private final SerializedString firingStart;
    private final SerializedString firingStartWithoutNameAndPackage;

    private RuleName(String packageName, String name) {
        this.packageName = Objects.requireNonNull(packageName, "packageName");
        this.name = Objects.requireNonNull(name, "name");
        this.qualified = packageName + "." + name;
        this.packageJson = encoded(this.packageName);
        this.nameJson = encoded(name);
        this.qualifiedJson = encoded(qualified);
        this.firingStartWithoutNameAndPackage = raw("\"rule\":\"" + quoted(qualifiedJson) + "\",\"order\":");
        this.firingStart = raw("\"rule\":\"" + quoted(qualifiedJson) + "\",\"name\":\"" + quoted(nameJson)
                + "\",\"package\":\"" + quoted(packageJson) + "\",\"order\":");
    }

    /**
     * The names of rule {@code name} in package {@code packageName}: the same instance for the same rule, also when
     * threads ask at once (past {@link #KEPT} names, an equal new one).
     */
    public static RuleName of(String packageName, String name) {
        Map<String, RuleName> inPackage = KNOWN.get(packageName);
        RuleName known = inPackage == null ? null : inPackage.get(name);
        if (known != null) {
            return known;
        }
        RuleName created = new RuleName(packageName, name);
        if (KEPT_COUNT.get() >= KEPT) {
            return created;
        }
        RuleName raced = KNOWN.computeIfAbsent(packageName, p -> new ConcurrentHashMap<>()).putIfAbsent(name, created);
        if (raced != null) {
            return raced;
        }
        KEPT_COUNT.incrementAndGet();
        return created;
    }

    /** {@code package.name}. */
    public String qualified() {
        return qualified;
    }

    public String name() {
        return name;
    }

    public String packageName() {
        return packageName;
    }

    SerializableString qualifiedJson() {
        return qualifiedJson;
    }

    SerializableString nameJson() {
        return nameJson;
    }

    SerializableString packageJson() {
        return packageJson;
    }

    /**
     * The fields a firing of this rule starts with, as raw JSON up to its order's value:
     * {@code "rule":..,"name":..,"package":..,"order":} or, without name and package, {@code "rule":..,"order":}.
     * Written with one copy instead of eight generator calls.
     */
    SerializableString firingStartJson(boolean nameAndPackage) {
        return nameAndPackage ? firingStart : firingStartWithoutNameAndPackage;
    }

    private static String quoted(SerializedString encoded) {
        return new String(encoded.asQuotedChars());
    }

    /** Text that is already JSON: its unquoted UTF-8 is the raw bytes to write. */
    static SerializedString raw(String json) {
        SerializedString raw = new SerializedString(json);
        raw.asUnquotedUTF8();
        return raw;
    }

    private static SerializedString encoded(String value) {
        SerializedString encoded = new SerializedString(value);
        encoded.asQuotedUTF8();
        return encoded;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RuleName that && packageName.equals(that.packageName) && name.equals(that.name);
    }

    @Override
    public int hashCode() {
        return 31 * packageName.hashCode() + name.hashCode();
    }

    @Override
    public String toString() {
        return qualified;
    }
}
