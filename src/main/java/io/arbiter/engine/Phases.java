package io.arbiter.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The phases (ruleflow groups) of a policy type, in firing order, as {@code rules/<folder>/phases.txt} declares them
 * next to the rules: one phase a line, {@code #} comments, and {@code [stage] note} lines that name a run of phases a
 * decider fires on its own (the dependencies type gates per partition, then reports). The rule base builder checks
 * every rule's ruleflow-group against this list, so the file is the one place phases are declared.
 */
public final class Phases {

    private Phases() {
    }

    /** Every phase of the folder, in order. */
    public static List<String> of(String folder) {
        return stage(folder, null);
    }

    /** The phases of one {@code [stage]} of the folder (null: every phase), in order. */
    public static List<String> stage(String folder, String stage) {
        String resource = "rules/" + folder + "/phases.txt";
        try (InputStream in = Phases.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the classpath");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), stage);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    static List<String> parse(String text, String stage) {
        List<String> phases = new ArrayList<>();
        String current = null;
        for (String raw : text.lines().toList()) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[")) {
                current = line.substring(1, line.indexOf(']'));
            } else if (stage == null || stage.equals(current)) {
                phases.add(line);
            }
        }
        if (phases.isEmpty()) {
            throw new IllegalStateException("no phases" + (stage == null ? "" : " in stage [" + stage + "]"));
        }
        return List.copyOf(phases);
    }
}
