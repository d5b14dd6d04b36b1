package io.arbiter.decision.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Limits;
import io.arbiter.decision.Work;
import io.arbiter.decision.rollout.RolloutFacts.ClusterState;
import io.arbiter.decision.rollout.RolloutFacts.Group;
import io.arbiter.decision.rollout.RolloutFacts.LimitSpec;
import io.arbiter.decision.rollout.RolloutFacts.Listed;
import io.arbiter.decision.rollout.RolloutFacts.Placement;
import io.arbiter.decision.rollout.RolloutFacts.MandatoryEntry;
import io.arbiter.decision.rollout.RolloutFacts.Settings;
import io.arbiter.decision.rollout.RolloutFacts.LimitField;
import io.arbiter.decision.rollout.RolloutFacts.Remediation;
import io.arbiter.decision.rollout.RolloutFacts.RecordStatus;
import io.arbiter.decision.rollout.RolloutFacts.Situation;
import io.arbiter.decision.rollout.RolloutFacts.Status;
import io.arbiter.decision.rollout.RolloutFacts.Strategy;
import io.arbiter.decision.rollout.RolloutFacts.Treat;
import io.arbiter.decision.rollout.RolloutFacts.StrayRecord;
import io.arbiter.document.Problem;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A rollout request, parsed and checked beyond its JSON Schema: durations, percentages, RFC 3339 times, unique
 * group indexes and cluster names, a cluster in one group only. Every refusal names its field. Produces the facts
 * of {@link RolloutFacts}; decides nothing.
 */
public final class RolloutRequest {

    /** The reference's check, unanchored as there: digits then h, m or s first (ocm-rollout.md section 1). */
    private static final Pattern DEADLINE = Pattern.compile("^(([0-9])+[h|m|s])|None$");
    /** Possessive: backtracking into the digits of a long run that is no percentage would be quadratic. */
    private static final Pattern PERCENT = Pattern.compile("[-+]?(\\d++\\.?\\d*+|\\.\\d++)([eE][-+]?\\d++)?%");
    /** How much of a refused value a message quotes. */
    private static final int QUOTED = 40;

    private final List<Object> facts = new ArrayList<>();
    private final List<ClusterState> clusters = new ArrayList<>();
    private final Settings settings;

    private RolloutRequest(JsonNode body) {
        List<Problem> problems = new ArrayList<>();
        JsonNode strategy = body.path("strategy");
        String typeText = strategy.path("type").asText("");
        Strategy type = typeText.isEmpty() ? Strategy.All : RolloutFacts.fromWire(Strategy.class, typeText);
        if (type == null) { // the schema admits none other
            Problem problem = Problem.at("$.strategy.type", quote(typeText) + " is not a strategy type: give All, "
                    + "Progressive or ProgressivePerGroup");
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "the rollout request is invalid: " + problem,
                    List.of(problem));
        }
        String where = "$.strategy." + type.field();
        JsonNode config = strategy.path(type.field());

        long minSuccess = duration(config, "minSuccessTime", where, problems);
        Long deadline = deadline(config, where, problems);
        limit(config, LimitField.maxFailures, where, problems);
        if (type == Strategy.Progressive) {
            limit(config, LimitField.maxConcurrency, where, problems);
        }
        if (type != Strategy.All) {
            JsonNode mandatory = config.path("mandatoryDecisionGroups");
            for (int i = 0; i < mandatory.size(); i++) {
                JsonNode entry = mandatory.get(i);
                facts.add(new MandatoryEntry(i, entry.path("groupName").asText(""), entry.path("groupIndex").asInt(0)));
            }
        }
        long now = body.has("now") ? time(body.get("now").asText(), () -> "$.now", problems) : micros(Instant.now());
        Remediation remediation = RolloutFacts.fromWire(Remediation.class, body.path("remediationAction").asText(Remediation.enforce.name()));
        if (remediation == null) { // the schema admits none other
            problems.add(Problem.at("$.remediationAction", quote(body.path("remediationAction").asText())
                    + " is not a remediation action: give enforce or inform"));
            remediation = Remediation.enforce;
        }
        settings = new Settings(type, remediation, now, minSuccess, deadline);
        facts.add(settings);

        Map<String, Record> records = records(body.path("clusters"), problems);
        groupsAndClusters(body.path("decisionGroups"), records, problems);
        if (!problems.isEmpty()) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST,
                    "the rollout request is invalid: " + problems.get(0), problems);
        }
        for (Situation situation : Situation.values()) {
            facts.add(new Treat(situation));
        }
        Set<Status> recorded = EnumSet.noneOf(Status.class);
        clusters.stream().map(ClusterState::status).filter(Objects::nonNull).forEach(recorded::add);
        recorded.forEach(status -> facts.add(new RecordStatus(status)));
        placements(recorded);
    }

    /**
     * Each list and status a cluster of this request can have in it: a record's status in any list, ToApply in
     * toRollout (where a cluster without a record goes as ToApply), and no record in neither list.
     */
    private void placements(Set<Status> recorded) {
        recorded.forEach(status -> {
            facts.add(new Placement(Listed.ROLLOUT, status));
            facts.add(new Placement(Listed.TIMED_OUT, status));
            facts.add(new Placement(Listed.NEITHER, status));
        });
        if (!recorded.contains(Status.ToApply)) {
            facts.add(new Placement(Listed.ROLLOUT, Status.ToApply));
        }
        if (clusters.stream().anyMatch(cluster -> cluster.status() == null)) {
            facts.add(new Placement(Listed.NEITHER, null));
        }
    }

    public static RolloutRequest parse(JsonNode body) {
        return new RolloutRequest(body);
    }

    public List<Object> facts() {
        return facts;
    }

    /**
     * The cost model of a rollout decision. Each mandatory entry is joined with the groups it names (by name, or by
     * index), so entries naming a name many groups share cost {@code entries × groups}: the mandatory selections,
     * counted here exactly. The rest of a rollout walks the groups and treats each cluster once:
     * {@code clusters + groups}, a cluster weighing {@link #CLUSTER_WEIGHT} and a unit per 10 characters of its name
     * (which its statuses, firings and answer entries repeat): a cluster held about 5.5 KiB at the decision's peak with
     * names of 8 characters, 9 KiB with 40 (bench/worst-case.sh: 20,000 clusters held up to 170 MiB), a unit about
     * 1.1 KiB. A decision fires and answers at most a few entries per cluster and per group, plus one per mandatory
     * selection.
     */
    /** Work units per cluster, against a unit per group and per mandatory selection. */
    static final long CLUSTER_WEIGHT = 5;

    public Work work() {
        Map<String, Long> named = new HashMap<>();
        Map<Integer, Long> indexed = new HashMap<>();
        long groups = 0;
        for (Object fact : facts) {
            if (fact instanceof Group group) {
                groups++;
                named.merge(group.groupName(), 1L, Long::sum);
                indexed.merge(group.groupIndex(), 1L, Long::sum);
            }
        }
        long entries = 0;
        long selections = 0;
        for (Object fact : facts) {
            if (fact instanceof MandatoryEntry entry) {
                entries++;
                // as rules/rollout/10-setup.drl selects: by a name when the entry gives one, else by the index
                selections += entry.groupName().isEmpty() ? indexed.getOrDefault(entry.groupIndex(), 0L)
                        : named.getOrDefault(entry.groupName(), 0L);
            }
        }
        long weighted = 0;
        for (ClusterState cluster : clusters) {
            weighted += CLUSTER_WEIGHT + cluster.name().length() / 10;
        }
        long units = Work.plus(Work.plus(weighted, groups), selections);
        return new Work(RolloutDecider.KIND, "Σ over clusters of (" + CLUSTER_WEIGHT + " + name length / 10) + decision"
                + " groups + Σ over mandatory entries of the groups each names", List.of(
                Work.dimension("clusters (of the decision groups)", clusters.size()),
                Work.dimension("weighted clusters (by the length of their names)", weighted),
                Work.dimension("decisionGroups", groups),
                Work.dimension("mandatoryDecisionGroups entries", entries),
                Work.dimension("mandatory selections (entry, group it names) pairs", selections)),
                units, Limits.ROLLOUT_WORK,
                "name each mandatory group once (one entry selects every group of its name), or give groups distinct"
                        + " names, or split the rollout");
    }

    public Settings settings() {
        return settings;
    }

    /** Every group cluster, by group index then name. */
    public List<ClusterState> clusters() {
        return clusters;
    }

    /**
     * A Go duration; absent is 0. An empty string is refused: upstream's field is a {@code metav1.Duration}, whose
     * decoding hands "" to {@code time.ParseDuration}, which refuses it (unlike {@code progressDeadline}, a string).
     */
    private long duration(JsonNode config, String field, String where, List<Problem> problems) {
        if (config.path(field).isMissingNode() || config.path(field).isNull()) {
            return 0;
        }
        String text = config.path(field).asText("");
        if (text.isEmpty()) {
            problems.add(Problem.at(where + "." + field, "\"\" is not a duration: give one such as 90s or 1m30s, "
                    + "or leave " + field + " out for 0"));
            return 0;
        }
        try {
            return GoDuration.parseMicros(text);
        } catch (IllegalArgumentException e) {
            problems.add(Problem.at(where + "." + field, e.getMessage()));
            return 0;
        }
    }

    private Long deadline(JsonNode config, String where, List<Problem> problems) {
        String text = config.path("progressDeadline").asText("");
        if (text.isEmpty() || text.equals("None")) {
            return null;
        }
        try {
            if (!DEADLINE.matcher(text).find()) {
                throw new IllegalArgumentException(quote(text) + " is not a deadline: give digits and h, m or s "
                        + "(e.g. 90s, 10m, 1h30m), or None");
            }
            return GoDuration.parseMicros(text);
        } catch (IllegalArgumentException e) {
            problems.add(Problem.at(where + ".progressDeadline", e.getMessage()));
            return null;
        }
    }

    private void limit(JsonNode config, LimitField field, String where, List<Problem> problems) {
        JsonNode value = config.path(field.name());
        if (value.isMissingNode() || value.isNull()) {
            return;
        }
        if (value.isNumber()) {
            // 2.0 is an integer to the schema, as 2 is, but not to upstream's IntOrString, which decodes a JSON number
            // into an int32 and refuses a fraction, even .0
            if (!value.isIntegralNumber()) {
                problems.add(Problem.at(where + "." + field, value.asText() + " is not a whole number: write it "
                        + "without a decimal point (e.g. 1), or give a percentage (e.g. \"10%\")"));
                return;
            }
            if (!value.canConvertToInt()) {
                problems.add(Problem.at(where + "." + field, "a number of clusters is a whole number from "
                        + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE));
                return;
            }
            facts.add(new LimitSpec(field, value.intValue(), null));
        } else if (value.isTextual() && PERCENT.matcher(value.asText()).matches()) {
            String text = value.asText();
            double percent = Double.parseDouble(text.substring(0, text.length() - 1));
            if (Double.isInfinite(percent)) {
                problems.add(Problem.at(where + "." + field, quote(text) + " is out of range for a percentage"));
                return;
            }
            facts.add(new LimitSpec(field, null, percent));
        } else {
            problems.add(Problem.at(where + "." + field,
                    quote(value.asText()) + " is neither a number of clusters nor a percentage (e.g. 2 or \"25%\")"));
        }
    }

    /** The records by cluster name, in request order, with their transition times parsed. */
    private record Record(int index, Status status, Long lastTransition) {
    }

    private Map<String, Record> records(JsonNode requested, List<Problem> problems) {
        Map<String, Record> records = new LinkedHashMap<>(requested.size() * 4 / 3 + 1);
        for (int i = 0; i < requested.size(); i++) {
            JsonNode record = requested.get(i);
            String name = record.path("name").asText();
            if (records.containsKey(name)) {
                problems.add(Problem.at("$.clusters[" + i + "].name", "cluster '" + name + "' has a record already"));
                continue;
            }
            JsonNode time = record.path("lastTransitionTime");
            int at = i;
            Long lastTransition = time.isTextual()
                    ? time(time.asText(), () -> "$.clusters[" + at + "].lastTransitionTime", problems) : null;
            Status status = RolloutFacts.fromWire(Status.class, record.path("status").asText());
            if (status == null) {
                problems.add(Problem.at("$.clusters[" + i + "].status", quote(record.path("status").asText()) + " is not a rollout status: "
                        + "give ToApply, Progressing, Succeeded, Failed, TimeOut or Skip"));
                continue;
            }
            records.put(name, new Record(i, status, lastTransition));
        }
        return records;
    }

    private void groupsAndClusters(JsonNode requested, Map<String, Record> records, List<Problem> problems) {
        Map<Integer, Integer> groupAt = new HashMap<>();
        int listed = 0;
        for (JsonNode group : requested) {
            listed += group.path("clusters").size();
        }
        // sized for every cluster, as records is: a rollout names thousands, and growing the maps while filling them
        // took about a quarter of parsing 5,000 clusters
        Map<String, Integer> groupOf = new HashMap<>(listed * 4 / 3 + 1);
        record Member(String name, int groupIndex) {
        }
        List<Member> members = new ArrayList<>(listed);
        List<int[]> groups = new ArrayList<>();
        for (int g = 0; g < requested.size(); g++) {
            JsonNode group = requested.get(g);
            int index = group.path("groupIndex").asInt();
            if (groupAt.putIfAbsent(index, g) != null) {
                problems.add(Problem.at("$.decisionGroups[" + g + "].groupIndex",
                        "group index " + index + " is used by decisionGroups[" + groupAt.get(index) + "] already"));
                continue;
            }
            groups.add(new int[]{index, g});
            JsonNode names = group.path("clusters");
            for (int c = 0; c < names.size(); c++) {
                String name = names.get(c).asText();
                Integer other = groupOf.putIfAbsent(name, index);
                if (other != null) {
                    problems.add(Problem.at("$.decisionGroups[" + g + "].clusters[" + c + "]",
                            "cluster '" + name + "' is in group " + other + " already; a cluster belongs to one group"));
                    continue;
                }
                members.add(new Member(name, index));
            }
        }
        if (!problems.isEmpty()) {
            return;
        }
        groups.sort(Comparator.comparingInt(group -> group[0]));
        Map<Integer, Integer> sizes = new HashMap<>();
        members.forEach(member -> sizes.merge(member.groupIndex(), 1, Integer::sum));
        Map<Integer, Integer> order = new HashMap<>();
        for (int[] group : groups) {
            JsonNode source = requested.get(group[1]);
            order.put(group[0], order.size());
            facts.add(new Group(group[0], source.path("groupName").asText(""), order.get(group[0]),
                    sizes.getOrDefault(group[0], 0)));
        }
        List<Member> byName = members.stream().sorted(Comparator.comparing(Member::name)).toList();
        int recordRank = 0;
        for (int rank = 0; rank < byName.size(); rank++) {
            Member member = byName.get(rank);
            Record record = records.get(member.name());
            ClusterState cluster = record == null
                    ? new ClusterState(member.name(), member.groupIndex(), order.get(member.groupIndex()), rank, -1, -1, null, null)
                    : new ClusterState(member.name(), member.groupIndex(), order.get(member.groupIndex()), rank,
                    record.index(), recordRank++, record.status(), record.lastTransition());
            clusters.add(cluster);
            facts.add(cluster);
        }
        clusters.sort(Comparator.comparingInt(ClusterState::groupOrder).thenComparingInt(ClusterState::rank));
        records.forEach((name, record) -> {
            if (!groupOf.containsKey(name)) {
                facts.add(new StrayRecord(record.index(), name, record.status()));
            }
        });
    }

    /** {@code where} is built only for a refusal: a request holds thousands of times, and nearly all are valid. */
    private static long time(String text, Supplier<String> where, List<Problem> problems) {
        try {
            return Rfc3339.micros(text);
        } catch (IllegalArgumentException e) {
            problems.add(Problem.at(where.get(), quote(text) + " is not an RFC 3339 time (e.g. 2026-01-01T00:10:00Z): " + e.getMessage()));
            return 0;
        }
    }

    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }

    /** A value quoted in a message, cut short: the problem's path already says where the whole of it is. */
    static String quote(String text) {
        return "'" + (text.length() <= QUOTED ? text : text.substring(0, QUOTED) + "…") + "'";
    }
}
