package io.arbiter.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.arbiter.audit.DecisionLogUnavailableException;
import io.arbiter.decision.Settings;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.LogCapture;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * What the server log says of a request that did not succeed: a failure not foreseen is an ERROR with its stack
 * trace; a refusal the service means (503, to be retried) one WARN line with its reason; a client that closed its
 * connection before it was answered nothing above DEBUG, since nothing failed in the server.
 */
class FailureLoggingTest {

    private static Vertx vertx;
    private HttpServer server;

    @RegisterExtension
    final LogCapture logs = LogCapture.of(Responses.class).from(Level.DEBUG);

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @AfterEach
    void stopServer() throws Exception {
        if (server != null) {
            server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private int serve(Router router) throws Exception {
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return server.actualPort();
    }

    /** Routes whose handler fails with {@code failure}, answered as the server answers every failure. */
    private int serveFailing(RuntimeException failure) throws Exception {
        Router router = Router.router(vertx);
        router.get("/v1/status").handler(ctx -> {
            throw failure;
        });
        router.route().failureHandler(ctx -> Responses.fail(ctx, ctx.failure()));
        return serve(router);
    }

    @Test
    void aFailureNotForeseenIsAnErrorWithItsStackTrace() throws Exception {
        HttpTestClient client = new HttpTestClient(serveFailing(new IllegalStateException("not foreseen")));

        assertEquals(500, client.get("/v1/status").status());

        ILoggingEvent event = only(Level.ERROR);
        assertEquals("request GET /v1/status failed", event.getFormattedMessage());
        assertNotNull(event.getThrowableProxy(), "the stack trace");
        assertEquals("not foreseen", event.getThrowableProxy().getMessage());
    }

    @Test
    void aRefusalIsOneWarningWithItsReason() throws Exception {
        HttpTestClient client = new HttpTestClient(serveFailing(new DecisionLogUnavailableException(
                "the decision log is required and cannot write /dev/full: No space left on device")));

        assertEquals(503, client.get("/v1/status").status());

        ILoggingEvent event = only(Level.WARN);
        assertEquals("request GET /v1/status refused (503): the decision log is required and cannot write /dev/full:"
                + " No space left on device", event.getFormattedMessage());
        assertNull(event.getThrowableProxy(), "no stack trace");
        assertEquals(List.of(), logs.messages(Level.ERROR));
    }

    @Test
    void aClientThatClosesItsConnectionWhileSendingItsBodyIsNoFailure() throws Exception {
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
        int port = serve(ArbiterServer.router(vertx, decisions, new ServerOptions("127.0.0.1", 0, Settings.embedded(), null)));

        try (RawConnection connection = new RawConnection(port)) {
            connection.send("POST /v1/decisions/implementation HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n{\"interface\": ");
        } catch (IOException e) {
            throw new AssertionError(e);
        }

        logs.await(Level.DEBUG, "request POST /v1/decisions/implementation: the client closed the connection");
        assertEquals(List.of(), logs.messages(Level.ERROR));
        assertEquals(List.of(), logs.messages(Level.WARN));
    }

    private ILoggingEvent only(Level level) {
        logs.await(level, "request");
        List<ILoggingEvent> events = logs.events();
        assertEquals(1, events.size(), events.toString());
        assertEquals(level, events.get(0).getLevel());
        return events.get(0);
    }
}
