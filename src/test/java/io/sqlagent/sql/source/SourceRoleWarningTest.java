package io.sqlagent.sql.source;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * A source whose role may do more than read gets a one-line warning with the fix, in readiness
 * (which stays UP) and from {@link SourceRoleCheck}; a read-only role gets none. The demo source
 * connects as the embedded server's superuser; the other roles are made on the same server.
 */
@QuarkusTest
@ScriptedModel
class SourceRoleWarningTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String FIX = "; the agent's SQL is kept read-only, but it needs only a read-only role: create one "
            + "as docs/configuration.md shows (\"Give the agent a read-only role\") and connect the source with it";

    @Inject
    SourceRegistry sources;

    @Inject
    SourceRoleCheck roles;

    @Inject
    Vertx vertx;

    @BeforeAll
    static void createRoles() {
        withSuperuser(pool -> {
            dropRoles(pool);
            execute(pool, "CREATE ROLE guard_reader LOGIN");
            execute(pool, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO guard_reader");
            execute(pool, "CREATE ROLE guard_writer LOGIN");
            execute(pool, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO guard_writer");
            execute(pool, "GRANT UPDATE ON public.genre TO guard_writer");
            execute(pool, "CREATE ROLE guard_creator LOGIN");
            execute(pool, "GRANT CREATE ON SCHEMA public TO guard_creator");
        });
    }

    @AfterAll
    static void dropRoles() {
        withSuperuser(SourceRoleWarningTest::dropRoles);
    }

    @Test
    void readinessWarnsAboutTheSuperuserSourceAndStaysUp() {
        given().when().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", is("UP"))
                .body("checks.find { it.name == 'sqlagent sources' }.status", is("UP"))
                .body("checks.find { it.name == 'sqlagent sources' }.data.default", is("UP"))
                .body("checks.find { it.name == 'sqlagent sources' }.data['default warning']",
                        is("role postgres is a superuser" + FIX));
    }

    @Test
    void aRoleThatCanWriteOrCreateIsNamedWithWhatItCanDo() {
        assertEquals(Optional.of("role guard_writer can write to tables (INSERT, UPDATE, DELETE or TRUNCATE on "
                + "public.genre, for one)" + FIX), warningFor("guard_writer"));
        assertEquals(Optional.of("role guard_creator can create objects in schema public" + FIX), warningFor("guard_creator"));
    }

    @Test
    void aReadOnlyRoleGetsNoWarning() {
        assertEquals(Optional.empty(), warningFor("guard_reader"));
    }

    private Optional<String> warningFor(String role) {
        Pool pool = pool(vertx, role);
        try {
            Source source = new Source("as_" + role, "test", Optional.of(pool), Optional.empty(),
                    new Source.PoolLimits(2, 10, Duration.ofSeconds(5)), new java.util.concurrent.atomic.AtomicInteger());
            return roles.warning(source, WAIT).await().atMost(WAIT);
        } finally {
            pool.closeAndAwait();
        }
    }

    private static Pool pool(Vertx vertx, String user) {
        String url = ConfigProvider.getConfig().getValue("sqlagent.sources.default.url", String.class);
        PgConnectOptions options = PgConnectOptions.fromUri(SourceUrls.normalise(url)).setUser(user).setPassword("unused");
        return Pool.newInstance(PgBuilder.pool().with(new PoolOptions().setMaxSize(1)).connectingTo(options)
                .using(vertx.getDelegate()).build());
    }

    private static void withSuperuser(java.util.function.Consumer<Pool> work) {
        Vertx vertx = Vertx.vertx();
        String user = ConfigProvider.getConfig().getValue("sqlagent.sources.default.username", String.class);
        Pool pool = pool(vertx, user);
        try {
            work.accept(pool);
        } finally {
            pool.closeAndAwait();
            vertx.closeAndAwait();
        }
    }

    private static void dropRoles(Pool pool) {
        for (String role : new String[] { "guard_reader", "guard_writer", "guard_creator" }) {
            execute(pool, "DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '" + role + "') THEN "
                    + "EXECUTE 'DROP OWNED BY " + role + "'; EXECUTE 'DROP ROLE " + role + "'; END IF; END $$");
        }
    }

    private static void execute(Pool pool, String sql) {
        pool.query(sql).execute().await().atMost(WAIT);
    }
}
