package io.arbiter.model;

/**
 * The decision data {@code capact.implementation/selected-implementation}: the Implementation an implementation
 * decision selected, and the Interface revision it was selected for (whose outputs it produces).
 */
public record SelectedImplementation(Ref interfaceRef, Ref implementation) {
}
