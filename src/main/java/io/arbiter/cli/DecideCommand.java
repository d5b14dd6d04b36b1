package io.arbiter.cli;

import io.arbiter.decision.Snapshot;
import io.arbiter.decision.SnapshotLoader;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationDecision;
import io.arbiter.decision.implementation.ImplementationRequest;
import io.arbiter.document.Documents;
import io.arbiter.model.Ref;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code arbiter decide}: one implementation decision, printed as the JSON the HTTP endpoint would answer. */
@Command(name = "decide", mixinStandardHelpOptions = true,
        description = "Print the implementation decision for an Interface as JSON, without a server.")
final class DecideCommand implements Callable<Integer> {

    @Option(names = "--interface", required = true, paramLabel = "PATH[:REV]",
            description = "The Interface, e.g. cap.interface.database.postgresql.install:0.1.0 (no revision: the highest known).")
    String interfaceRef;

    @Option(names = "--explain", description = "Add, per oneOf item, which Implementations matched and why the others did not.")
    boolean explain;

    @Mixin
    SnapshotOptions snapshot;

    @Override
    public Integer call() throws Exception {
        Ref ref = Ref.parse(interfaceRef);
        if (!ref.path().startsWith("cap.")) {
            System.err.println("arbiter decide: --interface must be a Capact path starting with 'cap.', got '" + ref.path() + "'");
            return 2;
        }
        Snapshot loaded = SnapshotLoader.load(snapshot.settings());
        ImplementationRequest request = new ImplementationRequest(ref, null, java.util.List.of(), null, null, explain);
        ImplementationDecision decision = ImplementationDecider.decide(request, loaded);
        System.out.println(Documents.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(decision));
        return 0;
    }
}
