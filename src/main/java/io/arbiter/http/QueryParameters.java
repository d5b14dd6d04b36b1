package io.arbiter.http;

import io.arbiter.document.Problem;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The query parameters a route reads: any other is refused (400, naming it and the known ones) before the body is
 * read, so that a misspelt one ({@code dry_run} for {@code dryRun}) is not ignored and the request served as if it
 * were absent: a dry run applied for real.
 */
final class QueryParameters implements Handler<RoutingContext> {

    private final Set<String> known;

    private QueryParameters(Set<String> known) {
        this.known = known;
    }

    /** A route reading these parameters, or none. */
    static QueryParameters only(List<String> names) {
        return new QueryParameters(Set.copyOf(names));
    }

    @Override
    public void handle(RoutingContext ctx) {
        Set<String> unknown = new TreeSet<>(ctx.queryParams().names());
        unknown.removeAll(known);
        if (unknown.isEmpty()) {
            ctx.next();
            return;
        }
        String name = ConnectionGuards.printable(unknown.iterator().next());
        String expected = known.isEmpty() ? "it takes no query parameters"
                : "the known ones are " + String.join(", ", new TreeSet<>(known));
        ConnectionGuards.refuse(ctx, new ApiError(400, "INVALID_REQUEST", "unknown query parameter '" + name + "' on "
                + ctx.request().method() + " " + ctx.request().path() + ": " + expected,
                unknown.stream().map(each -> Problem.at(ConnectionGuards.printable(each), "unknown query parameter: "
                        + expected)).toList()));
    }
}
