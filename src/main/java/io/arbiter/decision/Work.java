package io.arbiter.decision;

import io.arbiter.document.Problem;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The work a request implies, stated in its dimensions and computed in Java from the parsed request before any rule
 * runs (docs/api.md, "Limits", "Work budgets"). Each field limit alone keeps a request small, but the rules join the
 * fields with each other, so a request within every limit can still imply work (and a response) many times its size:
 * each decision target states its cost model as one {@code Work} and {@link #requireWithinBudget} refuses a request
 * past its budget with a 400 naming the dimensions, their values, the product and the budget.
 *
 * @param target     the decision target, e.g. {@code implementation}
 * @param formula    how {@code units} follows from the dimensions, in words, e.g.
 *                   {@code oneOf items × Implementations × (1 + constraints + requirements)}
 * @param dimensions the request's sizes the formula multiplies
 * @param units      the work, in the formula's units
 * @param budget     the most units a decision of this target may take
 * @param advice     what to send instead, e.g. "split the request into ..."
 */
public record Work(String target, String formula, List<Dimension> dimensions, long units, long budget, String advice) {

    /** One size of a request, named as the contract names it, e.g. {@code typeRefs} = 1000. */
    public record Dimension(String name, long value) {
        @Override
        public String toString() {
            return name + " = " + "%,d".formatted(value);
        }
    }

    public Work {
        dimensions = List.copyOf(dimensions);
    }

    public static Dimension dimension(String name, long value) {
        return new Dimension(name, value);
    }

    /**
     * The heap a decision of this work holds at most, in proportion to its budget: each budget is set so that a
     * decision at it holds at most {@link Limits#DECISION_HEAP} ({@code io.arbiter.bench.WorkBudgets} measures it).
     */
    public long heapBytes() {
        return (long) Math.ceil((double) Math.min(units, budget) / budget * Limits.DECISION_HEAP);
    }

    public boolean withinBudget() {
        return units <= budget;
    }

    /**
     * Refuses the request before any rule runs when its work is over the budget: a 400 {@code INVALID_REQUEST} at
     * {@code $} (the work is the whole request's, no one field went past a limit). Within it, the decision is admitted
     * by the heap its work implies ({@link WorkAdmission}).
     */
    public Work requireWithinBudget() {
        if (!withinBudget()) {
            String problem = "the " + target + " decision this request asks for is " + "%,d".formatted(units)
                    + " units of work (" + formula + ", with " + dimensions.stream().map(Dimension::toString)
                    .collect(Collectors.joining(", ")) + "), over the budget of " + "%,d".formatted(budget)
                    + " units a decision may take: " + advice;
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "the request is over its work budget: "
                    + problem, List.of(Problem.at("$", problem)));
        }
        WorkAdmission.admit(this);
        return this;
    }

    /** {@code a × b}, saturating: the dimensions are bounded, but their product must not wrap round into a small one. */
    public static long times(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** {@code a + b}, saturating as {@link #times}. */
    public static long plus(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
