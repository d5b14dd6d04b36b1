package io.arbiter.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.arbiter.document.Documents;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;

/**
 * A command's console, which every {@link ArbiterCommand} mixes in: its standard output and error as picocli holds
 * them (tests capture them there), and what every command prints alike: usage errors, JSON and located problems.
 * ({@code @Command} only because picocli takes no mixin without an annotation; it adds nothing to the usage help.)
 */
@Command
final class Console {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    PrintWriter out() {
        return command.commandLine().getOut();
    }

    PrintWriter err() {
        return command.commandLine().getErr();
    }

    /** A usage error to throw: picocli prints the message, and the command exits 2 without running. */
    ParameterException usage(String message) {
        return new ParameterException(command.commandLine(), message);
    }

    /** {@code value} as indented JSON on standard output. */
    void printJson(Object value) throws JsonProcessingException {
        out().println(Documents.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(value));
    }

    /** A failure on standard error, after the command's name ({@code arbiter lint: ...}). */
    void error(String message) {
        error(message, List.of());
    }

    /** A failure on standard error, after the command's name, then each of its located problems. */
    void error(String message, List<?> problems) {
        error(command, message, problems);
    }

    /**
     * How every command failure reads, whether the command reports it or it escapes the command: the command's
     * full name and the message on one line, then each located problem on a line of its own.
     */
    static void error(CommandSpec command, String message, List<?> problems) {
        PrintWriter err = command.commandLine().getErr();
        err.println(command.qualifiedName() + ": " + message);
        problems.forEach(problem -> err.println("  " + problem));
    }
}
