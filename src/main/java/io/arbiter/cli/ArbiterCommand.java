package io.arbiter.cli;

import io.arbiter.policytype.PolicyTypeRegistry;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/**
 * An {@code arbiter} command: its {@link Console}, through which it prints (picocli reads the mixin from this
 * superclass), and the policy types of the command line it is part of. A command's own class holds its options and
 * what it does.
 */
abstract class ArbiterCommand implements Callable<Integer> {

    @Mixin
    Console console;

    /** The snapshot settings the command loads, to report rules that do not compile as lint does; null: none. */
    io.arbiter.decision.Settings loadedSettings() {
        return null;
    }

    /** The policy types the command line was built with ({@link ArbiterCli#commandLine}). */
    PolicyTypeRegistry registry() {
        return ((ArbiterCli) console.command.root().userObject()).registry;
    }
}
