package io.sqlagent.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.sqlagent.TestProfiles;
import io.sqlagent.audit.AuditLog;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * When the store cannot keep up, the audit queue drops records and counts them instead of
 * slowing calls down; what was queued is still written.
 */
@QuarkusTest
@TestProfile(TestProfiles.Restricted.class)
class AuditBackpressureTest {

    @Inject
    AuditLog auditLog;

    @Inject
    MeterRegistry meters;

    @Inject
    Pool store;

    @Test
    void aFullQueueDropsAndCountsRecordsWithoutFailingCalls() {
        auditLog.flush().await().atMost(Duration.ofSeconds(5));
        long before = count();

        for (int i = 0; i < 5; i++) {
            given().contentType(ContentType.JSON).body("{\"text\":\"call " + i + "\"}").when().post("/api/tools/test_echo")
                    .then().statusCode(200);
        }
        int written = auditLog.flush().await().atMost(Duration.ofSeconds(5));

        assertEquals(2, written);
        assertEquals(before + 2, count());
        assertTrue(meters.get("sqlagent.audit.dropped").counter().count() >= 3);
    }

    private long count() {
        return store.query("SELECT count(*) FROM tool_call_audit WHERE tool = 'test_echo'").execute()
                .map(rows -> rows.iterator().next().getLong(0))
                .await().atMost(Duration.ofSeconds(5));
    }
}
