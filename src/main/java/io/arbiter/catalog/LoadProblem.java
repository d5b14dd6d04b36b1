package io.arbiter.catalog;

/** A file that could not be loaded, and why. Loading goes on with the other files. */
public record LoadProblem(String file, String message) {

    @Override
    public String toString() {
        return file + ": " + message;
    }
}
