package io.arbiter.catalog;

import java.util.List;

/** A loaded catalog plus the files that were skipped because they were malformed. */
public record CatalogLoadResult(Catalog catalog, List<LoadProblem> problems, int filesRead) {

    public CatalogLoadResult {
        problems = List.copyOf(problems);
    }
}
