package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Results are capped while they are read, not after: on a small heap, a statement whose rows are
 * far larger than the heap answers with its values cut and the result truncated, and the service
 * goes on answering. Before, the cursor held up to {@code max-rows + 1} whole rows first and the
 * process ended in an OutOfMemoryError.
 */
class ResultMemoryIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workDir;

    @Test
    void rowsLargerThanTheHeapAreCutWhileTheyAreRead() throws Exception {
        try (ServiceProcess service = ServiceProcess.startShortLived(workDir,
                // The schema index's embedding model alone needs more than this heap: not built here (it says so
                // and searches by words when it cannot embed); this test is about results.
                Map.of("SQLAGENT_SCHEMA_INDEX_BUILD_AT_START", "false"), List.of("-Xmx128m"))) {
            service.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(90));

            // 300 rows of 1 MB each: 300 MB of text (600 MB as Java strings) against a 128 MB heap.
            HttpResponse<String> huge = service.postJson("/api/tools/run_sql",
                    "{\"sql\":\"SELECT g, repeat('x', 1000000) AS big FROM generate_series(1, 300) g\"}",
                    Duration.ofSeconds(60));

            assertEquals(200, huge.statusCode(), huge.body());
            JsonNode result = JSON.readTree(huge.body()).get("result");
            assertTrue(result.get("truncated").asBoolean(), huge.body().substring(0, 300));
            JsonNode first = result.get("rows").get(0);
            assertEquals(1, first.get("g").asInt());
            assertTrue(first.get("big").asText().endsWith("…[cut: 998000 more characters]"),
                    first.get("big").asText().substring(1990));
            assertTrue(result.get("row_count").asInt() > 10, result.get("row_count").toString());

            HttpResponse<String> next = service.postJson("/api/tools/run_sql", "{\"sql\":\"SELECT 1 AS one\"}",
                    Duration.ofSeconds(10));
            assertEquals(200, next.statusCode(), next.body());
            assertFalse(service.logText().contains("OutOfMemoryError"), service.logText());
        }
    }

    /**
     * The audit log keeps a call's result size, not its result: with records waiting for an hour-long
     * flush, 300 results of about 1 MB each on the heap (rows, their JSON) against a 128 MB heap are all
     * answered. Before, every queued record held its result until the flush, and the service ran out of
     * memory after about a hundred.
     */
    @Test
    void resultsWaitingForTheAuditLogAreNotHeld() throws Exception {
        try (ServiceProcess service = ServiceProcess.startShortLived(workDir,
                Map.of("SQLAGENT_SCHEMA_INDEX_BUILD_AT_START", "false", "SQLAGENT_AUDIT_FLUSH_INTERVAL", "1h"),
                List.of("-Xmx128m"))) {
            service.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(90));

            // 1,000 rows of about 220 characters: under the 256K result cap, whole.
            String sql = "{\"sql\":\"SELECT g, repeat('x', 200) AS t FROM generate_series(1, 1000) g\"}";
            for (int call = 1; call <= 300; call++) {
                HttpResponse<String> answer = service.postJson("/api/tools/run_sql", sql, Duration.ofSeconds(30));
                assertEquals(200, answer.statusCode(), "call " + call + ": " + answer.body());
                if (call == 1) {
                    JsonNode result = JSON.readTree(answer.body()).get("result");
                    assertEquals(1000, result.get("row_count").asInt(), answer.body().substring(0, 300));
                    assertFalse(result.get("truncated").asBoolean());
                }
            }
            assertFalse(service.logText().contains("OutOfMemoryError"), service.logText());
        }
    }
}
