package io.sqlagent.sql.engine.mysql;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.result.ResultJson;
import io.sqlagent.sql.result.ResultValues;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * Runs a statement the way a source runs it on an engine, for tests: a connection of the pool, the session the engine
 * plans (read-only, time limit), the engine's result reader within the given caps, always rolled back.
 */
final class EngineSession {

    /** Reads numbers as a careful client does: every digit and the scale kept. */
    static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private final Engine engine;
    private final Pool pool;
    private final Duration limit;

    EngineSession(Engine engine, Pool pool, Duration limit) {
        this.engine = engine;
        this.pool = pool;
        this.limit = limit;
    }

    /** The result of {@code sql} read within {@code caps}. */
    ResultReader.Result read(String sql, ResultReader.Caps caps) {
        return pool.withConnection(connection -> opened(connection)
                .flatMap(ignored -> engine.results().read(connection, engine.session().timed(sql, limit), caps))
                .eventually(() -> connection.query(engine.session().rollback()).execute()))
                .await().atMost(limit.plusSeconds(20));
    }

    /** The answer's JSON of {@code sql} as a client reads it. */
    JsonNode answer(String sql, ResultReader.Caps caps) {
        try {
            return EXACT.readTree(read(sql, caps).written().json());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The rows of {@code sql}, each value as written: numbers keep the answer's very characters. */
    List<List<JsonNode>> rows(String sql, ResultReader.Caps caps) {
        ResultJson.Written written = read(sql, caps).written();
        return ResultValues.rows(written.json(), written.rowsStart(), written.rowsEnd() - written.rowsStart());
    }

    private Uni<Void> opened(SqlConnection connection) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String statement : engine.session().open(true, limit)) {
            chain = chain.flatMap(ignored -> connection.query(statement).execute().replaceWithVoid());
        }
        return chain;
    }
}
