package io.sqlagent.agent.live;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.sqlagent.StorableText;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.store.StoreSchemaUnavailableException;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The events of chat runs in the store ({@code chat_run}, {@code chat_run_event}): written by the
 * replica that runs a chat, read by whichever replica a client resumes the stream on.
 */
@ApplicationScoped
public class RunEventStore {

    private static final String INSERT_RUN = """
            INSERT INTO chat_run (run_id, principal, conversation_id) VALUES ($1, $2, $3)""";

    /**
     * A batch of a run's events and the run's new last seq (and its end), in one statement: atomic like the
     * transaction it replaces (BEGIN, the inserts, the update, COMMIT: four round trips per flush, one now), so a
     * reader never sees a last seq without its events. The events come as three parallel arrays.
     */
    private static final String APPEND = """
            WITH added AS (
                INSERT INTO chat_run_event (run_id, seq, name, data)
                SELECT $1, event.seq, event.name, event.data
                FROM unnest($2::integer[], $3::text[], $4::text[]) AS event (seq, name, data))
            UPDATE chat_run SET last_seq = greatest(last_seq, $5),
                ended_at = CASE WHEN $6 THEN now() ELSE ended_at END
            WHERE run_id = $1""";

    /** A reader's look at a run, which also records that someone reads it. */
    private static final String READ_RUN = """
            UPDATE chat_run SET read_at = now() WHERE run_id = $1
            RETURNING principal, started_at, ended_at IS NOT NULL AS ended, last_seq""";

    private static final String EVENTS = """
            SELECT seq, name, data FROM chat_run_event WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3""";

    private static final String WATCH = """
            SELECT coalesce(read_at > now() - make_interval(secs => $2), false) AS recent, cancel_requested
            FROM chat_run WHERE run_id = $1""";

    private static final String REQUEST_CANCEL = """
            UPDATE chat_run SET cancel_requested = true WHERE run_id = $1 AND principal = $2
            RETURNING ended_at IS NOT NULL AS ended""";

    private static final String PRUNE = """
            DELETE FROM chat_run WHERE started_at < now() - make_interval(secs => $1)""";

    private final Pool store;
    private final StoreMigrations migrations;

    RunEventStore(Pool store, StoreMigrations migrations) {
        this.store = store;
        this.migrations = migrations;
    }

    /** A run as a reader finds it: whose it is, when it started, whether its last event is stored, how many there are. */
    public record StoredRun(String principal, OffsetDateTime startedAt, boolean ended, int lastSeq) {
    }

    private Uni<Void> ready() {
        return migrations.ready() ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(new StoreSchemaUnavailableException());
    }

    /** Records a new run of {@code principal}; its events follow. */
    Uni<Void> create(UUID runId, String principal, Optional<UUID> conversationId) {
        return ready().flatMap(ok -> store.preparedQuery(INSERT_RUN)
                .execute(Tuple.of(runId, StorableText.clean(principal), conversationId.orElse(null))))
                .replaceWithVoid();
    }

    /** Stores {@code events} of one run with the run's new last seq (and its end, with the last event), atomically. */
    Uni<Void> append(UUID runId, List<RunEvent> events, int lastSeq, boolean ended) {
        Integer[] seqs = new Integer[events.size()];
        String[] names = new String[events.size()];
        String[] data = new String[events.size()];
        for (int index = 0; index < events.size(); index++) {
            RunEvent event = events.get(index);
            seqs[index] = event.seq();
            names[index] = event.name();
            data[index] = StorableText.clean(event.data());
        }
        Tuple values = Tuple.tuple().addUUID(runId).addArrayOfInteger(seqs).addArrayOfString(names)
                .addArrayOfString(data).addInteger(lastSeq).addBoolean(ended);
        return ready().flatMap(ok -> store.preparedQuery(APPEND).execute(values)).replaceWithVoid();
    }

    /** The run, marked as read now; empty when there is no such run (never was, or pruned). */
    public Uni<Optional<StoredRun>> read(UUID runId) {
        return ready().flatMap(ok -> store.preparedQuery(READ_RUN).execute(Tuple.of(runId)))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.empty();
                    }
                    Row row = rows.iterator().next();
                    return Optional.of(new StoredRun(row.getString("principal"), row.getOffsetDateTime("started_at"),
                            row.getBoolean("ended"), row.getInteger("last_seq")));
                });
    }

    /** Up to {@code limit} events of the run after {@code seq}, in order. */
    public Uni<List<RunEvent>> after(UUID runId, int seq, int limit) {
        return ready().flatMap(ok -> store.preparedQuery(EVENTS).execute(Tuple.of(runId, seq, limit)))
                .map(rows -> {
                    List<RunEvent> events = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        events.add(new RunEvent(runId, row.getInteger("seq"), row.getString("name"), row.getString("data")));
                    }
                    return events;
                });
    }

    /**
     * What a run's owner watches while its client is away: whether someone read it lately, whether its cancel was asked for.
     */
    record Watched(boolean readRecently, boolean cancelRequested) {
    }

    /**
     * Whether a resumed stream read the run within the last {@code period} (by the store's clock), and whether it is to be
     * cancelled.
     */
    Uni<Watched> watch(UUID runId, Duration period) {
        return ready().flatMap(ok -> store.preparedQuery(WATCH).execute(Tuple.of(runId, period.toMillis() / 1000.0)))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return new Watched(false, false);
                    }
                    Row row = rows.iterator().next();
                    return new Watched(row.getBoolean("recent"), row.getBoolean("cancel_requested"));
                });
    }

    /**
     * Asks the replica that runs it to cancel {@code principal}'s run: empty when there is no such run, else whether it had
     * ended.
     */
    Uni<Optional<Boolean>> requestCancel(UUID runId, String principal) {
        return ready().flatMap(ok -> store.preparedQuery(REQUEST_CANCEL).execute(Tuple.of(runId, principal)))
                .map(rows -> rows.size() == 0 ? Optional.<Boolean> empty()
                        : Optional.of(rows.iterator().next().getBoolean("ended")));
    }

    /** Deletes runs (and their events) that started longer than {@code retention} ago; how many. */
    Uni<Integer> prune(Duration retention) {
        return ready().flatMap(ok -> store.preparedQuery(PRUNE).execute(Tuple.of((double) retention.toSeconds())))
                .map(rows -> rows.rowCount());
    }
}
