package io.arbiter.cli;

import io.arbiter.http.ArbiterServer;
import io.arbiter.http.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code arbiter serve}: the HTTP decision service. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve decisions over HTTP.",
                "With no options it serves the embedded default: the fixture catalog, TypeInstance store and default global policy.",
                "Policy administration (PUT /v1/policy) needs the ARBITER_ADMIN_TOKEN environment variable; without it that endpoint answers 403."})
final class ServeCommand implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "8080", paramLabel = "PORT", description = "HTTP port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--host", defaultValue = "0.0.0.0", paramLabel = "HOST", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String host;

    @Mixin
    SnapshotOptions snapshot;

    @Override
    public Integer call() throws Exception {
        ServerOptions options = new ServerOptions(host, port, snapshot.settings(), System.getenv("ARBITER_ADMIN_TOKEN"));
        ArbiterServer server = ArbiterServer.start(options).toCompletionStage().toCompletableFuture().get();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "arbiter-shutdown"));
        server.awaitStop();
        return 0;
    }
}
