package io.arbiter.policytype;

import java.util.List;

/**
 * Provides {@link Chain}s, registered through {@code META-INF/services/io.arbiter.policytype.ChainProvider} and
 * discovered with {@link java.util.ServiceLoader}, as policy types are.
 */
public interface ChainProvider {

    List<Chain> chains();
}
