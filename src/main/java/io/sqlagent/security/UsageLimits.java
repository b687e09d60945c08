package io.sqlagent.security;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.StorableText;
import io.sqlagent.store.StoreMigrations;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Per-principal limits: chat runs per minute, model tokens per day, direct tool calls per minute
 * ({@link UsageLimitsConfig}). Counts live in the store, not in one replica's memory, so every replica
 * enforces the same allowance: runs and calls in fixed one-minute windows ({@code usage_window},
 * one atomic upsert per request), tokens summed from the runs recorded today (UTC). A request over
 * a limit is refused with the seconds until its window ends. With no limit set nothing is counted.
 * Metrics: {@code sqlagent_limit_refusals_total{limit}} and {@code sqlagent_limit_per_principal{limit}}
 * (the default allowance, 0 when off).
 */
@ApplicationScoped
@Startup // the meters exist from the start, before the first request
public class UsageLimits {

    /** A request over a limit. */
    public record Refusal(String limit, String message, long retryAfterSeconds) {
    }

    static final String CHAT_RUNS = "chat_runs";
    static final String MODEL_TOKENS = "model_tokens";
    static final String TOOL_CALLS = "tool_calls";

    private static final String COUNT = """
            INSERT INTO usage_window (principal, kind, window_start, used) VALUES ($1, $2, $3, 1)
            ON CONFLICT (principal, kind, window_start) DO UPDATE SET used = usage_window.used + 1 RETURNING used""";
    private static final String TOKENS_TODAY = """
            SELECT coalesce(sum(r.input_tokens + r.output_tokens), 0) AS used
            FROM conversation_run r JOIN conversation c ON c.id = r.conversation_id
            WHERE coalesce(c.principal, '%s') = $1 AND r.started_at >= $2""".formatted(Caller.ANONYMOUS);

    private final UsageLimitsConfig config;
    private final Pool store;
    private final StoreMigrations migrations;
    private final MeterRegistry meters;
    /** When windows that ended a day ago were last deleted (nanoTime); the table only ever needs the current ones. */
    private final AtomicLong lastCleanup = new AtomicLong(System.nanoTime());

    private static final String CLEANUP = """
            DELETE FROM usage_window WHERE window_start < now() - interval '1 day'""";
    private static final long CLEANUP_EVERY_NANOS = Duration.ofMinutes(10).toNanos();

    UsageLimits(UsageLimitsConfig config, Pool store, StoreMigrations migrations, MeterRegistry meters) {
        this.config = config;
        this.store = store;
        this.migrations = migrations;
        this.meters = meters;
        for (String limit : new String[] { CHAT_RUNS, MODEL_TOKENS, TOOL_CALLS }) {
            refusals(limit);
        }
        gauge(CHAT_RUNS, allowance -> allowance.chatRunsPerMinute().map(Number::doubleValue));
        gauge(MODEL_TOKENS, allowance -> allowance.modelTokensPerDay().map(Number::doubleValue));
        gauge(TOOL_CALLS, allowance -> allowance.toolCallsPerMinute().map(Number::doubleValue));
    }

    private void gauge(String limit, Function<UsageLimitsConfig.Allowance, Optional<Double>> value) {
        double configured = value.apply(config.defaults()).orElse(0.0);
        Gauge.builder("sqlagent.limit.per.principal", () -> configured)
                .description("The default per-principal allowance of each limit (chat runs and tool calls per minute, "
                        + "model tokens per day); 0 when the limit is off")
                .tag("limit", limit)
                .register(meters);
    }

    private Counter refusals(String limit) {
        return Counter.builder("sqlagent.limit.refusals")
                .description("Requests refused because their principal was over a limit")
                .tag("limit", limit)
                .register(meters);
    }

    /** Counts a chat run of {@code caller} and refuses it when the caller is over a chat limit. */
    public Uni<Optional<Refusal>> chatRun(Caller caller) {
        UsageLimitsConfig.Allowance allowance = allowance(caller);
        Optional<Integer> runs = allowance.chatRunsPerMinute();
        Optional<Long> tokens = allowance.modelTokensPerDay();
        Uni<Optional<Refusal>> tokenCheck = tokens.isEmpty() ? none() : tokensToday(caller, tokens.get());
        return tokenCheck.flatMap(refused -> refused.isPresent() || runs.isEmpty() ? Uni.createFrom().item(refused)
                : perMinute(caller, CHAT_RUNS, runs.get(), "chat runs", "chat-runs-per-minute"));
    }

    /** Counts a direct tool call (REST or MCP) of {@code caller} and refuses it when over the limit. */
    public Uni<Optional<Refusal>> toolCall(Caller caller) {
        Optional<Integer> calls = allowance(caller).toolCallsPerMinute();
        return calls.isEmpty() ? none()
                : perMinute(caller, TOOL_CALLS, calls.get(), "tool calls", "tool-calls-per-minute");
    }

    private UsageLimitsConfig.Allowance allowance(Caller caller) {
        // By id first; an API key may also be named key:<name>, which an admin chose and no token can produce.
        UsageLimitsConfig.Allowance byId = config.principals().get(caller.name());
        return byId != null ? byId : config.principals().getOrDefault(caller.alias(), config.defaults());
    }

    private static Uni<Optional<Refusal>> none() {
        return Uni.createFrom().item(Optional.empty());
    }

    private Uni<Optional<Refusal>> perMinute(Caller caller, String kind, int limit, String what, String setting) {
        Instant now = Instant.now();
        Instant window = now.truncatedTo(ChronoUnit.MINUTES);
        long retryAfter = Math.max(1, Duration.between(now, window.plus(1, ChronoUnit.MINUTES)).toSeconds() + 1);
        cleanUpNowAndThen();
        return ready()
                .flatMap(ok -> store.preparedQuery(COUNT)
                        .execute(Tuple.of(StorableText.clean(caller.name()), kind, window.atOffset(ZoneOffset.UTC))))
                .map(rows -> rows.iterator().next().getLong("used"))
                .map(used -> used <= limit ? Optional.<Refusal> empty()
                        : Optional.of(refuse(kind, "'" + caller.name() + "' may make " + limit + " " + what
                                + " per minute (sqlagent.limits." + setting + "); try again in " + retryAfter + " s",
                                retryAfter)));
    }

    /** Deletes old windows every few minutes, in the background; a failure is retried next time. */
    private void cleanUpNowAndThen() {
        long last = lastCleanup.get();
        long now = System.nanoTime();
        if (now - last < CLEANUP_EVERY_NANOS || !lastCleanup.compareAndSet(last, now) || !migrations.ready()) {
            return;
        }
        store.query(CLEANUP).execute().subscribe().with(deleted -> {
        }, failure -> Log.debugf("Old usage windows could not be deleted: %s", failure.getMessage()));
    }

    private Uni<Optional<Refusal>> tokensToday(Caller caller, long limit) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        OffsetDateTime today = now.truncatedTo(ChronoUnit.DAYS);
        long retryAfter = Math.max(1, Duration.between(now, today.plusDays(1)).toSeconds() + 1);
        return ready()
                .flatMap(ok -> store.preparedQuery(TOKENS_TODAY).execute(Tuple.of(StorableText.clean(caller.name()), today)))
                .map(rows -> rows.iterator().next().getLong("used"))
                .map(used -> used < limit ? Optional.<Refusal> empty()
                        : Optional.of(refuse(MODEL_TOKENS, "'" + caller.name() + "' has used " + used + " of its " + limit
                                + " model tokens for today, UTC (sqlagent.limits.model-tokens-per-day); try again in "
                                + retryAfter + " s", retryAfter)));
    }

    private Refusal refuse(String limit, String message, long retryAfter) {
        refusals(limit).increment();
        return new Refusal(limit, message, retryAfter);
    }

    private Uni<Void> ready() {
        return migrations.ready() ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(new IllegalStateException(
                        "the store's schema could not be brought up to date (see the service log)"));
    }
}
