package io.arbiter.bench;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two builds of the project in one JVM, each in a class loader of its own (its {@code target/classes} and
 * {@code target/test-classes}, the same dependency jars), running one of the {@link BuildCases} both ways. The four
 * cases take turns of {@value #PER_TURN_DEFAULT} decisions, their order rotating every round; the result is each case's
 * median time and, paired by round, the second way against the first in each build and build B against build A.
 * Forks of one build differ by up to 30% on a small shared machine, more than most changes; here both builds share
 * the JVM, the machine and its neighbours. Run {@code bash bench/compare-builds.sh REV}.
 * <p>
 * Arguments: ROOT_A ROOT_B CLASSPATH_FILE [ROUNDS] [audit|dependencies|implementation|embedded|rollout].
 */
public final class CompareBuilds {

    private static final int PER_TURN_DEFAULT = 200;

    private record Build(String root, ClassLoader loader, Object cases, Method first, Method second) {
    }

    private CompareBuilds() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: CompareBuilds ROOT_A ROOT_B CLASSPATH_FILE [ROUNDS] [audit|dependencies|implementation|embedded|rollout]");
            System.exit(2);
        }
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        String which = args.length > 4 ? args[4] : "audit";
        boolean dependencies = which.equals("dependencies");
        String caseClass = BuildCases.class.getName() + switch (which) {
            case "dependencies" -> "$Dependencies";
            case "implementation" -> "$Implementation";
            case "embedded" -> "$Embedded";
            case "rollout" -> "$Rollout";
            default -> "$AuditCost";
        };
        int perTurn = dependencies || which.equals("rollout") ? 2 : PER_TURN_DEFAULT;
        String[] ways = switch (which) {
            case "dependencies" -> new String[] {"one session", "partitioned"};
            case "implementation", "embedded" -> new String[] {"interface", "policies"};
            case "rollout" -> new String[] {"allRecorded", "progressiveMidway"};
            default -> new String[] {"unaudited", "recorded"};
        };
        List<String> jars = Arrays.asList(Files.readString(Path.of(args[2])).trim().split(":"));
        List<Build> builds = new ArrayList<>();
        for (String root : new String[] {args[0], args[1]}) {
            builds.add(load(root, jars, caseClass));
        }
        for (int warmup = 0; warmup < 20; warmup++) {
            for (int c = 0; c < 4; c++) {
                turn(builds, c, perTurn);
            }
        }
        long[][] nanos = new long[4][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < 4; k++) {
                int c = (k + round) % 4;
                nanos[c][round] = turn(builds, c, perTurn);
            }
        }
        for (int c = 0; c < 4; c++) {
            System.out.printf("%s %-12s %10.1f us/decision%n", c < 2 ? "A" : "B", ways[c % 2], median(nanos[c]) / perTurn / 1e3);
        }
        System.out.printf("A = %s, B = %s (%d rounds)%n", args[0], args[1], rounds);
        System.out.printf("%s against %s, paired by round: A %+.1f%%, B %+.1f%%%n", ways[1], ways[0],
                100 * (pairedMedian(nanos[1], nanos[0]) - 1), 100 * (pairedMedian(nanos[3], nanos[2]) - 1));
        System.out.printf("B against A, paired by round: %s %.3f, %s %.3f%n", ways[0], pairedMedian(nanos[2], nanos[0]),
                ways[1], pairedMedian(nanos[3], nanos[1]));
    }

    private static Build load(String root, List<String> jars, String caseClass) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(Path.of(root, "target", "test-classes").toUri().toURL());
        urls.add(Path.of(root, "target", "classes").toUri().toURL());
        for (String jar : jars) {
            urls.add(Path.of(jar).toUri().toURL());
        }
        ClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(loader); // Drools loads the compiled rules through it
        Class<?> type = loader.loadClass(caseClass);
        Object cases = type.getConstructor(String.class).newInstance(root);
        return new Build(root, loader, cases, type.getMethod("first"), type.getMethod("second"));
    }

    private static long turn(List<Build> builds, int c, int decisions) throws Exception {
        Build build = builds.get(c / 2);
        Method way = c % 2 == 0 ? build.first() : build.second();
        Thread.currentThread().setContextClassLoader(build.loader());
        long started = System.nanoTime();
        for (int i = 0; i < decisions; i++) {
            way.invoke(build.cases());
        }
        return System.nanoTime() - started;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double pairedMedian(long[] of, long[] against) {
        double[] ratios = new double[of.length];
        for (int i = 0; i < of.length; i++) {
            ratios[i] = (double) of[i] / against[i];
        }
        Arrays.sort(ratios);
        return ratios[ratios.length / 2];
    }
}
