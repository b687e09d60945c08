package io.sqlagent.eval;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Runs and per-case results in the store ({@code eval_run}, {@code eval_case_result}), so any replica can report and compare
 * them.
 */
@ApplicationScoped
public class EvalStore {

    private final Pool store;

    EvalStore(Pool store) {
        this.store = store;
    }

    /** A stored run; {@code principal} started it (null for runs from before owners were kept). */
    public record Run(UUID id, String suite, String model, String status, int total, OffsetDateTime startedAt,
            OffsetDateTime finishedAt, String error, JsonNode settings, String principal) {
    }

    /** A stored case result, in the run's case order. */
    public record Stored(String caseId, int position, String category, boolean passed, JsonNode result) {
    }

    private static final String INSERT_RUN = """
            INSERT INTO eval_run (id, suite, model, status, total, settings, principal)
            VALUES ($1, $2, $3, 'running', $4, $5, $6)""";

    private static final String SAVE_RESULT = """
            INSERT INTO eval_case_result (run_id, case_id, position, category, passed, result)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (run_id, case_id) DO UPDATE SET passed = excluded.passed, result = excluded.result""";

    private static final String FINISH = """
            UPDATE eval_run SET status = $2, error = $3, finished_at = now() WHERE id = $1""";

    private static final String FIND_RUN = """
            SELECT * FROM eval_run WHERE id = $1""";

    private static final String RESULTS = """
            SELECT case_id, position, category, passed, result::text AS result FROM eval_case_result
            WHERE run_id = $1 ORDER BY position""";

    public Uni<Void> create(UUID id, String suite, String model, int total, JsonNode settings, String principal) {
        return store.preparedQuery(INSERT_RUN)
                .execute(Tuple.from(java.util.Arrays.asList(id, suite, model, total, new JsonObject(settings.toString()),
                        io.sqlagent.StorableText.clean(principal))))
                .replaceWithVoid();
    }

    public Uni<Void> save(UUID run, int position, CaseResult result) {
        return store.preparedQuery(SAVE_RESULT)
                .execute(Tuple.from(List.of(run, result.id(), position, result.category(), result.passed(),
                        new JsonObject(json(result)))))
                .replaceWithVoid();
    }

    public Uni<Void> finish(UUID run, String status, String error) {
        return store.preparedQuery(FINISH)
                .execute(Tuple.of(run, status, error))
                .replaceWithVoid();
    }

    public Uni<Optional<Run>> find(UUID id) {
        return store.preparedQuery(FIND_RUN).execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(run(rows.iterator().next())));
    }

    public Uni<List<Stored>> results(UUID run) {
        return store.preparedQuery(RESULTS).execute(Tuple.of(run))
                .map(rows -> {
                    List<Stored> stored = new ArrayList<>();
                    for (Row row : rows) {
                        stored.add(new Stored(row.getString("case_id"), row.getInteger("position"), row.getString("category"),
                                row.getBoolean("passed"), parse(row.getString("result"))));
                    }
                    return stored;
                });
    }

    private static Run run(Row row) {
        return new Run(row.getUUID("id"), row.getString("suite"), row.getString("model"), row.getString("status"),
                row.getInteger("total"),
                row.getOffsetDateTime("started_at"), row.getOffsetDateTime("finished_at"), row.getString("error"),
                parse(row.getJsonObject("settings").encode()), row.getString("principal"));
    }

    private static String json(Object value) {
        try {
            return SnakeCaseJson.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode parse(String text) {
        try {
            return SnakeCaseJson.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
