package io.arbiter.document;

import java.util.List;

/** A document that cannot be used, with every problem found in it. */
public class DocumentException extends RuntimeException {

    private final List<Problem> problems;

    public DocumentException(String message, List<Problem> problems) {
        super(message);
        this.problems = List.copyOf(problems);
    }

    public DocumentException(String message, Problem problem) {
        this(message, List.of(problem));
    }

    public List<Problem> problems() {
        return problems;
    }
}
