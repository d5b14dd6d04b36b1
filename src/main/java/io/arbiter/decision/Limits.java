package io.arbiter.decision;

import io.arbiter.document.Problem;

import java.util.List;

/**
 * What one request may hold, so every request under the 1 MiB body limit is decided in bounded time and memory
 * (docs/api.md, "Limits"). Counts and lengths a JSON Schema can state are in the request schemas
 * ({@code maxItems}, {@code maxLength}) with these values; this class holds them for the checks that need Java (a
 * count after PolicySet expansion, strings inside inline manifests, the explanation's size) and for tests.
 */
public final class Limits {

    // ---- dependencies ----
    public static final int POLICIES = 2_000;
    public static final int TEMPLATES_PER_POLICY = 100;
    public static final int DEPENDENCIES_PER_OWNER = 100;
    public static final int POLICY_SETS = 1_000;
    public static final int POLICIES_PER_SET = 2_000;
    public static final int OBSERVED = 20_000;
    /** Dependencies summed over templates, after PolicySet expansion: what gating judges and reports per template. */
    public static final int TEMPLATE_DEPENDENCIES = 20_000;
    /** A Kubernetes object name's limit: names, namespaces, kinds, apiVersions. */
    public static final int NAME_LENGTH = 253;

    // ---- rollout ----
    public static final int CLUSTERS = 20_000;
    public static final int DECISION_GROUPS = 1_000;

    // ---- implementation and backend ----
    public static final int WORKFLOW_POLICIES = 100;
    public static final int RULES_PER_POLICY = 1_000;
    public static final int ONE_OF_ITEMS = 100;
    public static final int IMPLEMENTATIONS = 1_000;
    public static final int TYPE_INSTANCES = 5_000;
    public static final int TYPE_REFS = 1_000;
    /** Paths, ids, names and prefixes. */
    public static final int PATH_LENGTH = 256;
    /** Every revision: a semantic version is a few characters. */
    public static final int REVISION_LENGTH = 64;

    // ---- work budgets (Work): what the fields above imply together, computed before any rule runs ----
    /** The most heap one decision at its work budget may hold; each budget below is set to keep a decision within it. */
    public static final long DECISION_HEAP = 64L << 20;
    /**
     * {@code ImplementationDecider.work}: item × Implementation pairs weighted by their constraints and requirements;
     * a decision at it holds at most about 60 MB of heap ({@code io.arbiter.bench.WorkBudgets}).
     */
    public static final long IMPLEMENTATION_WORK = 18_000;
    /** {@code BackendDecider.work}: Types, their prefixes looked up, covers and rules (firings), same-typeRef rules merged. */
    public static final long BACKEND_WORK = 100_000;
    /** {@code RolloutRequest.work}: clusters (weighted), groups, and each mandatory entry times the groups it names. */
    public static final long ROLLOUT_WORK = 40_000;
    /** {@code DependenciesDecider.work}: policies, templates, template dependencies (by label length) and PolicySet members, weighted by the heap each holds. */
    public static final long DEPENDENCIES_WORK = 11_000;

    private Limits() {
    }

    /** A 400 naming the limit a request went past, at {@code path}. */
    public static DecisionException exceeded(String path, String problem) {
        return new DecisionException(DecisionException.Code.INVALID_REQUEST, "the request is over a limit: " + path + ": "
                + problem, List.of(Problem.at(path, problem)));
    }
}
