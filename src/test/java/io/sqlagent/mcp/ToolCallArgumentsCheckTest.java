package io.sqlagent.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.mcp.server.McpMethod;
import io.quarkiverse.mcp.server.runtime.McpRequest;
import io.quarkiverse.mcp.server.runtime.McpRequestValidator;
import io.quarkiverse.mcp.server.test.McpAssured;
import io.quarkiverse.mcp.server.test.McpAssured.McpStreamableTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * {@link ToolCallArgumentsCheck} implements {@code McpRequestValidator}, an interface of quarkus-mcp-server's runtime
 * package (no public API does its job in 1.13.0). These tests fail with a message saying what changed when a new
 * version of the library changes that interface or stops calling it, instead of leaving the service to answer null
 * arguments with a bare "Internal error" again.
 */
@QuarkusTest
@ScriptedModel
class ToolCallArgumentsCheckTest {

    private static final String CHANGED = "quarkus-mcp-server changed its runtime-internal McpRequestValidator, which "
            + "ToolCallArgumentsCheck implements to drop null arguments and refuse malformed tools/call messages before "
            + "the library reads them; read that class's Javadoc and the library's release notes, then adapt it: ";

    @Inject
    @Any
    Instance<McpRequestValidator> validators;

    @Test
    void theLibrarysValidatorInterfaceIsStillTheOneThisCheckImplements() {
        List<Method> abstractMethods = Arrays.stream(McpRequestValidator.class.getMethods())
                .filter(method -> java.lang.reflect.Modifier.isAbstract(method.getModifiers())).toList();

        assertEquals(1, abstractMethods.size(), CHANGED + "it now has the abstract methods " + abstractMethods);
        assertEquals(1, McpRequestValidator.class.getDeclaredMethods().length,
                CHANGED + "it now declares " + Arrays.toString(McpRequestValidator.class.getDeclaredMethods()));
        Method validate = abstractMethods.get(0);
        assertEquals("validate", validate.getName(), CHANGED + validate);
        assertEquals(List.of(JsonObject.class, McpRequest.class, McpMethod.class), List.of(validate.getParameterTypes()),
                CHANGED + validate);
        assertEquals(Future.class, validate.getReturnType(), CHANGED + validate);
    }

    @Test
    void theCheckIsTheOnlyValidatorSoTheLibraryCallsIt() {
        // 1.13.0 takes a validator only when exactly one bean is resolvable (isResolvable() in its message handlers):
        // a second one, such as the library's JSON Schema validator extension, would switch this check off silently.
        List<String> found = validators.stream().map(validator -> validator.getClass().getName()).toList();

        assertTrue(validators.isResolvable(),
                CHANGED + "not exactly one McpRequestValidator bean, so the library calls none: " + found);
        assertTrue(validators.get() instanceof ToolCallArgumentsCheck, CHANGED + "the validator bean is " + found);
    }

    @Test
    void theLibraryCallsTheCheckBeforeItReadsTheArgumentsOfACall() {
        McpStreamableTestClient client = McpAssured.newConnectedStreamableClient();
        JsonObject call = client.newRequest("tools/call");
        call.put("params", new JsonObject().put("name", "search_knowledge")
                .put("arguments", new JsonObject().put("query", "genre revenue").putNull("limit")));

        client.sendAndForget(call);
        JsonObject answer = client.waitForResponse(call);

        assertNull(answer.getValue("error"), CHANGED + "a null argument was not dropped before the library read it: "
                + answer.encode());
        assertFalse(answer.getJsonObject("result").getBoolean("isError", false), answer.encode());
        client.disconnect();
    }
}
