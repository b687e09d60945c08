package io.sqlagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * {@link WellFormedMessage} passes a body only when {@link McpMessageCheck}'s full decode would: a single JSON object
 * without a problem. Everything else it leaves to the full decode, whose refusals McpProtocolEdgesTest holds.
 */
class WellFormedMessageTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"run_sql\",\"arguments\":{\"sql\":\"SELECT 1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2.5,\"method\":\"m\",\"params\":null}",
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}",
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":null,\"error\":{\"code\":1}}",
            "{\"jsonrpc\":\"1.0\",\"jsonrpc\":\"2.0\",\"method\":\"m\"}",
            "{\"method\":\"m\",\"params\":{\"a\":[1,{\"b\":[]}],\"c\":\"}\"},\"jsonrpc\":\"2.0\"}  \n",
    })
    void passesWhatTheFullCheckPasses(String body) {
        assertThat(WellFormedMessage.is(bytes(body))).isTrue();
        assertThat(fullCheckPasses(body)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", " ", "null", "42", "\"hello\"", "[]", "[{\"jsonrpc\":\"2.0\",\"method\":\"m\"}]",
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\"} {}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\"",
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\" /* a comment */}",
            "{\"jsonrpc\":2.0,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"jsonrpc\":\"1.0\",\"method\":\"m\"}",
            "{\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":null}",
            "{\"jsonrpc\":\"2.0\",\"method\":[\"m\"]}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"method\":3}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":[1]}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":\"x\"}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{},\"params\":7}",
    })
    void leavesEverythingElseToTheFullCheck(String body) {
        assertThat(WellFormedMessage.is(bytes(body))).isFalse();
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean fullCheckPasses(String body) {
        try {
            return Json.decodeValue(Buffer.buffer(body)) instanceof JsonObject object
                    && McpMessageCheck.problem(object) == null;
        } catch (DecodeException e) {
            return false;
        }
    }
}
