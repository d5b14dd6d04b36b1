package io.arbiter.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No package of {@code io.arbiter} depends on itself through others. A package depends on another when one of its
 * sources names a type of it, by import or fully qualified (comments aside, javadoc links included: a link is
 * a reader's dependency too).
 */
class PackageCyclesTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern TYPE_REFERENCE = Pattern.compile("\\b(io\\.arbiter(?:\\.[a-z]\\w*)+)\\.[A-Z]");
    private static final Pattern LINE_COMMENT = Pattern.compile("//[^\\n]*");

    @Test
    void noPackageCycles() throws IOException {
        assertEquals(List.of(), cycles(dependencies(SOURCES)));
    }

    @Test
    void aCycleIsFound() {
        Map<String, Set<String>> graph = new TreeMap<>(Map.of(
                "a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a")));
        assertEquals(List.of(List.of("a", "b", "c")), cycles(graph));
    }

    @Test
    void dependenciesAreReadFromTheSources() throws IOException {
        Map<String, Set<String>> graph = dependencies(SOURCES);
        assertTrue(graph.getOrDefault("io.arbiter.http", Set.of()).contains("io.arbiter.runtime"), graph.toString());
    }

    static Map<String, Set<String>> dependencies(Path root) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String source = LINE_COMMENT.matcher(Files.readString(file)).replaceAll("");
                Matcher declared = PACKAGE.matcher(source);
                if (!declared.find()) {
                    continue;
                }
                String from = declared.group(1);
                Set<String> targets = graph.computeIfAbsent(from, key -> new TreeSet<>());
                Matcher reference = TYPE_REFERENCE.matcher(source);
                while (reference.find()) {
                    if (!reference.group(1).equals(from)) {
                        targets.add(reference.group(1));
                    }
                }
            }
        }
        return graph;
    }

    /** The strongly connected components of more than one package (Tarjan), each sorted. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Tarjan tarjan = new Tarjan(graph);
        new TreeSet<>(graph.keySet()).forEach(node -> {
            if (!tarjan.index.containsKey(node)) {
                tarjan.visit(node);
            }
        });
        return tarjan.components;
    }

    private static final class Tarjan {
        final Map<String, Set<String>> graph;
        final Map<String, Integer> index = new TreeMap<>();
        final Map<String, Integer> low = new TreeMap<>();
        final List<String> stack = new ArrayList<>();
        final List<List<String>> components = new ArrayList<>();

        Tarjan(Map<String, Set<String>> graph) {
            this.graph = graph;
        }

        void visit(String node) {
            index.put(node, index.size());
            low.put(node, index.get(node));
            stack.add(node);
            for (String next : graph.getOrDefault(node, Set.of())) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(node, Math.min(low.get(node), low.get(next)));
                } else if (stack.contains(next)) {
                    low.put(node, Math.min(low.get(node), index.get(next)));
                }
            }
            if (low.get(node).equals(index.get(node))) {
                List<String> component = new ArrayList<>();
                String member;
                do {
                    member = stack.remove(stack.size() - 1);
                    component.add(member);
                } while (!member.equals(node));
                if (component.size() > 1) {
                    components.add(component.stream().sorted().toList());
                }
            }
        }
    }
}
