package io.arbiter.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** The service's metrics, scraped as Prometheus text by {@code GET /metrics}. */
public final class Metrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, Counter> ruleFirings = new ConcurrentHashMap<>();
    private final Map<String, Timer> decisionTimers = new ConcurrentHashMap<>();
    private final Map<String, Counter> decisionCounters = new ConcurrentHashMap<>();

    public void decision(String endpoint, String outcome, long nanos, List<String> firedRules) {
        decisionCounters.computeIfAbsent(endpoint + "\u0000" + outcome, key -> Counter.builder("arbiter.decisions")
                .description("Decisions by endpoint and outcome").tag("endpoint", endpoint).tag("outcome", outcome)
                .register(registry)).increment();
        decisionTimers.computeIfAbsent(endpoint, name -> Timer.builder("arbiter.decision.latency")
                .description("Time to decide, from parsed request to rendered result").tag("endpoint", name)
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofSeconds(1)).register(registry)).record(Duration.ofNanos(nanos));
        // A large decision fires one rule thousands of times in a row: one counter update per run of them.
        int i = 0;
        while (i < firedRules.size()) {
            String rule = firedRules.get(i);
            int run = 1;
            while (i + run < firedRules.size() && firedRules.get(i + run).equals(rule)) {
                run++;
            }
            ruleFirings.computeIfAbsent(rule, name -> Counter.builder("arbiter.rule.firings")
                    .description("Rule firings by rule").tag("rule", name).register(registry)).increment(run);
            i += run;
        }
    }

    public void httpStatus(int status) {
        Counter.builder("arbiter.http.responses").description("HTTP responses by status")
                .tag("status", Integer.toString(status)).register(registry).increment();
    }

    public void policyReload(boolean succeeded) {
        Counter.builder("arbiter.policy.reloads").description("Policy replacements and reloads, by result")
                .tag("result", succeeded ? "success" : "failure").register(registry).increment();
    }

    public void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).register(registry);
    }

    public String scrape() {
        return registry.scrape();
    }
}
