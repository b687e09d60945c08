package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Param;

class MethodToolTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    static class Calculator {
        @ToolDefinition(name = "add", description = "Adds two numbers.", readOnly = true)
        int add(@Param(description = "First", minimum = 0) int a, @Param(description = "Second") int b) {
            return a + b;
        }

        @ToolDefinition(name = "greet", description = "Greets someone, later.")
        Uni<Map<String, String>> greet(@Param(description = "Who", maxLength = 20) String personName,
                @Param(description = "Greeting word") Optional<String> word) {
            return Uni.createFrom().item(Map.of("text", word.orElse("Hello") + ", " + personName));
        }

        @ToolDefinition(name = "divide", description = "Divides.")
        int divide(@Param(description = "n") int n, @Param(description = "d") int d) {
            return n / d;
        }

        int notATool() {
            return 0;
        }
    }

    private final ToolRegistry registry = new ToolRegistry();
    private final ToolExecutor executor = new ToolExecutor(registry, List.of(), List.of(), List.of(),
            ExecutorOptions.defaults());

    MethodToolTest() {
        MethodTool.all(new Calculator()).forEach(registry::register);
    }

    private ToolExecution run(String tool, String arguments) throws Exception {
        return executor
                .execute(new ToolCall("1", tool, (ObjectNode) SnakeCaseJson.MAPPER.readTree(arguments)),
                        ToolCallContext.of("test"))
                .await().atMost(WAIT);
    }

    @Test
    void everyAnnotatedMethodBecomesATool() {
        assertEquals(List.of("add", "divide", "greet"), registry.list().stream().map(ToolDescriptor::name).toList());
        ToolDescriptor greet = registry.descriptor("greet").orElseThrow();
        assertEquals("[\"person_name\"]", greet.parameters().path("required").toString());
        assertEquals(20, greet.parameters().at("/properties/person_name/maxLength").asInt());
    }

    @Test
    void argumentsBindToParametersAndReturnValuesOrUnisBecomeResults() throws Exception {
        assertEquals(5, ((ToolResult.Success) run("add", "{\"a\":2,\"b\":3}").result()).value().asInt());
        assertEquals("Hi, Ada",
                ((ToolResult.Success) run("greet", "{\"person_name\":\"Ada\",\"word\":\"Hi\"}").result()).value()
                        .path("text").asText());
        assertEquals("Hello, Ada",
                ((ToolResult.Success) run("greet", "{\"person_name\":\"Ada\"}").result()).value().path("text").asText());
    }

    @Test
    void parameterConstraintsAreEnforcedAndExceptionsBecomeFailures() throws Exception {
        ToolExecution negative = run("add", "{\"a\":-1,\"b\":3}");
        ToolExecution byZero = run("divide", "{\"n\":1,\"d\":0}");

        assertEquals(Outcome.INVALID_ARGUMENTS, negative.outcome());
        assertEquals(Outcome.FAILURE, byZero.outcome());
        assertTrue(((ToolResult.Failure) byZero.result()).message().contains("ArithmeticException: / by zero"));
    }
}
