package io.sqlagent.embedded;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.audit.AuditLog;
import io.sqlagent.audit.AuditRows;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * The embedded PostgreSQL killed under the running service (SIGKILL of its postmaster): readiness goes DOWN at once,
 * the server is started again on its data directory and port, readiness is UP within 30 s, and a tool call made while
 * it was down is in the audit log afterwards.
 */
@QuarkusTest
@ScriptedModel
class EmbeddedSupervisionTest {

    @Inject
    AuditLog auditLog;

    @Inject
    Pool store;

    @Inject
    MeterRegistry meters;

    @Test
    void aKilledServerIsNoticedRestartedAndLosesNoAuditRecord() throws Exception {
        given().when().get("/q/health/ready").then().statusCode(200);
        EmbeddedDatabase.Running running = EmbeddedDatabase.current().orElseThrow();
        ProcessHandle postmaster = PostmasterStopper.postmaster(running.dataDirectory()).orElseThrow();
        double spooledBefore = meters.get("sqlagent.audit.spooled").counter().count();
        Instant killed = Instant.now();

        postmaster.destroyForcibly(); // SIGKILL: no shutdown of its own, as the OOM killer would
        postmaster.onExit().get();

        long down = waitForReadiness(503, Duration.ofSeconds(5));
        assertTrue(down < 2000, "readiness went DOWN " + down + " ms after the kill");

        // A tool call while the store is down: its audit record cannot be written now.
        given().contentType(ContentType.JSON).body("{\"text\":\"while the store was down\"}").when()
                .post("/api/tools/test_echo").then().statusCode(200);
        try {
            auditLog.flush().await().atMost(Duration.ofSeconds(5));
        } catch (RuntimeException expected) {
            // the store is down: the record is spooled
        }

        long up = waitForReadiness(200, Duration.ofSeconds(40));
        long sinceKill = Duration.between(killed, Instant.now()).toMillis();
        assertTrue(sinceKill < 30_000, "ready again " + sinceKill + " ms after the kill");
        ProcessHandle restarted = PostmasterStopper.postmaster(running.dataDirectory()).orElseThrow();
        assertNotEquals(postmaster.pid(), restarted.pid());
        assertTrue(up >= 0);

        var row = AuditRows.await(auditLog, store, "test_echo",
                "called_at >= '" + killed.atOffset(ZoneOffset.UTC) + "'::timestamptz");
        assertEquals("success", row.getString("outcome"));
        assertTrue(meters.get("sqlagent.audit.spooled").counter().count() > spooledBefore,
                "the record waited in the spool");
        // The store and the demo source serve again.
        given().contentType(ContentType.JSON).body("{\"sql\":\"SELECT count(*) AS n FROM genre\"}").when()
                .post("/api/tools/run_sql").then().statusCode(200);
    }

    /** Milliseconds until {@code /q/health/ready} answers {@code status}. */
    private static long waitForReadiness(int status, Duration within) throws InterruptedException {
        long start = System.nanoTime();
        while (System.nanoTime() - start < within.toNanos()) {
            if (given().when().get("/q/health/ready").statusCode() == status) {
                return Duration.ofNanos(System.nanoTime() - start).toMillis();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("readiness did not answer " + status + " within " + within.toSeconds() + " s");
    }
}
