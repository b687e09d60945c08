package io.sqlagent.agent.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.AgentEvent;
import io.sqlagent.jsonschema.Violation;
import io.sqlagent.tool.Outcome;
import io.sqlagent.tool.ToolResult;

/** What the model reads of a tool's result (all of it) and what the client's {@code tool_result} event shows (a cut). */
class ToolResultViewsTest {

    private static final ObjectNode ROWS = SnakeCaseJson.MAPPER.createObjectNode().put("rows", "x".repeat(30));

    @Test
    void theModelReadsASuccessAsItsJson() {
        assertEquals(ROWS.toString(), ToolResultViews.forModel(ToolResult.success(ROWS)));
        assertEquals("null", ToolResultViews.forModel(ToolResult.success(null)));
    }

    @Test
    void theModelReadsAFailureAsTheOneErrorBody() {
        ToolResult invalid = ToolResult.invalidArguments("2 arguments are invalid",
                List.of(new Violation("sql", "is required"), new Violation("limit", "must be at most 100")));

        assertEquals("{\"error\":\"invalid_arguments\",\"message\":\"2 arguments are invalid\",\"details\":["
                + "{\"argument\":\"sql\",\"problem\":\"is required\"},{\"argument\":\"limit\",\"problem\":\"must be at most 100\"}]}",
                ToolResultViews.forModel(invalid));
        assertEquals("{\"error\":\"blocked\",\"message\":\"denied\"}", ToolResultViews.forModel(ToolResult.blocked("denied")));
        assertEquals("{\"stopped\":\"enough\"}", ToolResultViews.forModel(new ToolResult.Stopped("enough")));
    }

    @Test
    void anEventCarriesASmallResultWhole() throws Exception {
        AgentEvent.ToolResultEvent event = ToolResultViews.event("c1", "run_sql", ToolResult.success(ROWS), 12, 1000);

        assertEquals(ROWS, SnakeCaseJson.MAPPER.readTree(SnakeCaseJson.MAPPER.writeValueAsString(event)).path("result"));
        assertNull(event.truncated());
        assertTrue(event.ok());
    }

    @Test
    void anEventCutsALargeResultToTextAndSaysSo() {
        AgentEvent.ToolResultEvent event = ToolResultViews.event("c1", "run_sql", ToolResult.success(ROWS), 12, 10);

        assertEquals(TextNode.valueOf("{\"rows\":\"x…[31 more characters]"), event.result());
        assertEquals(Boolean.TRUE, event.truncated());
        assertTrue(event.ok());
    }

    @Test
    void anEventCarriesAFailuresMessageCutTheSameWay() {
        AgentEvent.ToolResultEvent small = ToolResultViews.event("c1", "run_sql",
                new ToolResult.Failure(Outcome.FAILURE, "syntax error", List.of()), 3, 100);
        AgentEvent.ToolResultEvent large = ToolResultViews.event("c1", "run_sql",
                new ToolResult.Failure(Outcome.FAILURE, "e".repeat(15), List.of()), 3, 10);
        AgentEvent.ToolResultEvent stopped = ToolResultViews.event("c1", "stop", new ToolResult.Stopped("enough"), 0, 100);

        assertEquals(new AgentEvent.ToolResultEvent("c1", "run_sql", false, 3, null, "syntax error", "failure", null), small);
        assertEquals("eeeeeeeeee…[5 more characters]", large.error());
        assertEquals(Boolean.TRUE, large.truncated());
        assertEquals("enough", stopped.error());
        assertEquals("stopped", stopped.outcome());
        assertNull(stopped.result());
    }
}
