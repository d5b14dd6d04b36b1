package io.arbiter.engine;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How a {@link Fact} is named in the audit: a text in which {@code {name}} stands for the value of the fact's
 * no-argument method {@code name()} (a record component, usually), and {@code {name.other}} for {@code
 * name().other()}. A value is written as {@link String#valueOf}: name a nested fact by its {@code factId}, e.g.
 * {@code "{phase} {group.factId}"}. Name only what identifies the fact, never values a policy may hold secrets in.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface FactId {

    String value();
}
