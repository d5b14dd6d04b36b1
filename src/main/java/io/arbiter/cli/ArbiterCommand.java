package io.arbiter.cli;

import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/**
 * An {@code arbiter} command with its {@link Console}, through which it prints (picocli reads the mixin from this
 * superclass): a command's own class holds its options and what it does.
 */
abstract class ArbiterCommand implements Callable<Integer> {

    @Mixin
    Console console;
}
