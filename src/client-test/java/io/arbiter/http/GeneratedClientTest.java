package io.arbiter.http;

import io.arbiter.client.ApiClient;
import io.arbiter.client.ApiException;
import io.arbiter.client.api.DecisionsApi;
import io.arbiter.client.api.OperationsApi;
import io.arbiter.client.model.BackendDecision;
import io.arbiter.client.model.BackendRequest;
import io.arbiter.client.model.BackendRequestTypeRefsInner;
import io.arbiter.client.model.ImplementationDecision;
import io.arbiter.client.model.ImplementationRequest;
import io.arbiter.client.model.ImplementationRequestInterface;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java client the build generates from /openapi.json (profile {@code generated-client}: the OpenAPI Generator's
 * {@code java}/{@code native} client) decides over HTTP against a running server, with typed fields.
 */
class GeneratedClientTest {

    private static DecisionsApi decisions;
    private static OperationsApi operations;

    @BeforeAll
    static void start() throws Exception {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://127.0.0.1:" + TestServers.shared().port());
        decisions = new DecisionsApi(client);
        operations = new OperationsApi(client);
    }

    @Test
    void decidesAnImplementationWithTypedFields() throws ApiException {
        ImplementationDecision decision = decisions.decideImplementation(new ImplementationRequest()
                ._interface(new ImplementationRequestInterface().path("cap.interface.database.postgresql.install").revision("0.1.0")));

        assertEquals(ImplementationDecision.OutcomeEnum.SELECTED, decision.getOutcome());
        Object oneOfIndex = decision.getRule().getOneOfIndex();
        assertInstanceOf(Integer.class, oneOfIndex); // not the 0.0 of an untyped map
        assertEquals(0, oneOfIndex);
        assertEquals("cap.implementation.bitnami.postgresql.install", decision.getSelected().getPath());
        assertEquals("helm-storage", decision.getInject().getRequiredTypeInstances().get(0).getAlias());
        assertEquals("implementation", decision.getTarget());
        assertEquals(1, decision.getFiredRules().get(0).getOrder());
        assertTrue(decision.getWarnings().isEmpty());
    }

    @Test
    void decidesABackendWithItsEnum() throws ApiException {
        BackendDecision decision = decisions.decideBackend(new BackendRequest()
                .addTypeRefsItem(new BackendRequestTypeRefsInner().path("cap.type.helm.release.storage").revision("0.1.0")));

        assertEquals("BUILTIN", decision.getBackends().get(0).getMatchedBy().getValue());
    }

    @Test
    void anErrorIsAnExceptionWithTheStatusAndTheErrorBody() {
        ApiException refused = assertThrows(ApiException.class, () -> decisions.decideImplementation(
                new ImplementationRequest()._interface(new ImplementationRequestInterface().path("not-cap"))));

        assertEquals(400, refused.getCode());
        assertTrue(refused.getResponseBody().contains("\"INVALID_REQUEST\""), refused.getResponseBody());
    }

    @Test
    void readsHealth() throws ApiException {
        assertEquals("UP", String.valueOf(operations.healthz().getStatus()));
    }
}
