package io.arbiter.model;

/** How many items of an Implementation's requirement group must be satisfied (OCF {@code spec.requires}). */
public enum Quantifier {
    ALL_OF("allOf"), ANY_OF("anyOf"), ONE_OF("oneOf");

    private final String ocfName;

    Quantifier(String ocfName) {
        this.ocfName = ocfName;
    }

    public String ocfName() {
        return ocfName;
    }
}
