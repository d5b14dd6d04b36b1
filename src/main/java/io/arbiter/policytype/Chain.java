package io.arbiter.policytype;

import java.util.List;
import java.util.Objects;

/**
 * A decision target decided by several policy types in turn, in one request and one record: each type after the
 * first is given what the earlier ones {@link PolicyType#produces produced} of the data it
 * {@link PolicyType#consumes consumes} (passing data between policies). The registry checks, when it is built, that
 * every type of a chain is registered and that everything a type consumes is produced by a type before it.
 *
 * <p>Every part decides the chain's one request document (each type reads the fields it knows); a part whose
 * consumed data was not produced (no Implementation selected) is skipped, and the chain's outcome is the first
 * part's.
 *
 * @param target the chain's target: {@code POST /v1/decisions/{name}} and {@code arbiter decide {name}}
 * @param types  the policy types, in the order they decide
 */
public record Chain(Target target, List<String> types) {

    public Chain {
        Objects.requireNonNull(target, "target");
        types = List.copyOf(types);
        if (types.size() < 2) {
            throw new IllegalArgumentException("a chain of one type is that type's own target");
        }
    }
}
