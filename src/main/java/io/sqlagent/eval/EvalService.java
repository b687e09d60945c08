package io.sqlagent.eval;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.agent.model.ChatModels;
import io.sqlagent.http.ApiException;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.source.SourceRegistry;

/**
 * Starts and tracks evaluation runs: the cases go through {@link CaseRunner} a few at a time within
 * the run's token and time budget, each result is stored as it arrives, progress is published for
 * SSE, and when the run ends its accuracy goes to the gauges.
 */
@ApplicationScoped
public class EvalService {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Duration FIXTURE_TIMEOUT = Duration.ofSeconds(60);

    private final CaseRunner cases;
    private final EvalStore store;
    private final EvalMetrics metrics;
    private final EvalConfig config;
    private final ChatModels models;
    private final SourceRegistry sources;
    private final SqlConfig sql;
    private final String modelName;
    private final Map<UUID, RunProgress> running = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> fixturesInUse = new ConcurrentHashMap<>();

    EvalService(CaseRunner cases, EvalStore store, EvalMetrics metrics, EvalConfig config, ChatModels models,
            SourceRegistry sources,
            SqlConfig sql,
            @ConfigProperty(name = "quarkus.langchain4j.openai.chat-model.model-name", defaultValue = "unknown") String modelName) {
        this.cases = cases;
        this.store = store;
        this.metrics = metrics;
        this.config = config;
        this.models = models;
        this.sources = sources;
        this.sql = sql;
        this.modelName = models.name().orElse(modelName);
    }

    /** Why a run cannot start (no model, too many runs); the resource answers with {@code status}. */
    public static final class CannotStart extends ApiException {
        private static final long serialVersionUID = 1L;

        CannotStart(int status, String code, String message) {
            super(status, ErrorBody.of(code, message));
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        // A run lives in the replica that started it: one this replica leaves behind can never finish.
        for (UUID id : running.keySet()) {
            try {
                store.finish(id, "failed", "the service stopped while the run was going").await().atMost(FIXTURE_TIMEOUT);
            } catch (RuntimeException e) {
                Log.warnf("Could not mark eval run %s as failed: %s", id, e.getMessage());
            }
        }
    }

    /**
     * Records the run as {@code caller}'s and starts it in the background, asking every case as that caller (its
     * scopes, database role and table policy, as its chats have); the id is known before any case runs.
     */
    public Uni<UUID> start(EvalRequest request, Caller caller) {
        if (!models.configured()) {
            throw new CannotStart(409, "model_not_configured", models.model().problem());
        }
        if (running.size() >= config.maxRuns()) {
            throw new CannotStart(429, "too_many_runs",
                    "At most " + config.maxRuns()
                            + " eval runs may go at once on this replica (sqlagent.eval.max-runs); wait for one to end");
        }
        EvalSuite suite = request.suite().withTags(request.tags());
        if (suite.cases().isEmpty()) {
            throw new CannotStart(400, "invalid_cases", "No case carries any of the tags " + request.tags());
        }
        UUID id = UUID.randomUUID();
        ObjectNode settings = NODES.objectNode().put("concurrency", request.concurrency())
                .put("max_tokens", request.maxTokens())
                .put("timeout", request.timeout().toString()).put("judge", request.judge());
        settings.set("tags", io.sqlagent.SnakeCaseJson.MAPPER.valueToTree(request.tags()));
        settings.set("tolerance",
                NODES.objectNode().put("absolute", config.absoluteTolerance()).put("relative", config.relativeTolerance()));
        RunProgress progress = new RunProgress();
        running.put(id, progress);
        return store.create(id, suite.name(), modelName, suite.cases().size(), settings, caller.name())
                .onFailure().invoke(failure -> running.remove(id))
                .invoke(created -> execute(id, suite, request, progress, caller))
                .replaceWith(id);
    }

    /** The progress of a run going on in this replica. */
    public Optional<Multi<RunProgress.Event>> progress(UUID id) {
        return Optional.ofNullable(running.get(id)).map(RunProgress::events);
    }

    private void execute(UUID id, EvalSuite suite, EvalRequest request, RunProgress progress, Caller caller) {
        CaseRunner.Settings settings = new CaseRunner.Settings(
                new Tolerance(config.absoluteTolerance(), config.relativeTolerance()), request.judge(), caller);
        AtomicLong tokens = new AtomicLong();
        AtomicInteger done = new AtomicInteger();
        long deadline = System.nanoTime() + request.timeout().toNanos();
        int total = suite.cases().size();
        progress.publish(new RunProgress.Event("started", NODES.objectNode().put("id", id.toString()).put("suite", suite.name())
                .put("model", modelName).put("total", total)));
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            positions.add(i);
        }
        setUp(suite)
                .onItem().transformToMulti(ready -> Multi.createFrom().iterable(positions))
                .onItem().transformToUni(position -> one(suite.cases().get(position), settings, request, tokens, deadline)
                        .call(result -> store.save(id, position, result))
                        .invoke(result -> progress.publish(new RunProgress.Event("case", NODES.objectNode()
                                .put("id", result.id()).put("category", result.category()).put("passed", result.passed())
                                .put("done", done.incrementAndGet()).put("total", total).put("tokens", tokens.get())))))
                .merge(request.concurrency())
                .collect().last()
                .eventually(() -> tearDown(suite))
                .flatMap(last -> finish(id, "done", null))
                .onFailure().recoverWithUni(failure -> {
                    Log.warnf("Eval run %s failed: %s", id, failure.getMessage());
                    return finish(id, "failed", failure.getMessage());
                })
                .subscribe().with(summary -> {
                    // Off the running list before anyone hears it is done: a client that starts the next
                    // run on "done" must not be refused as too many runs, and the finished run reads
                    // from the store from now on.
                    running.remove(id);
                    progress.publish(new RunProgress.Event("done", summary));
                    progress.end();
                }, failure -> {
                    Log.errorf(failure, "Eval run %s could not be recorded as finished", id);
                    running.remove(id);
                    progress.end();
                });
    }

    /** One case within the budget: skipped when tokens or time are spent, stopped when the time runs out mid-case. */
    private Uni<CaseResult> one(EvalCase c, CaseRunner.Settings settings, EvalRequest request, AtomicLong tokens,
            long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return Uni.createFrom().item(CaseResult.skipped(c, "the run's time budget (" + request.timeout() + ") was spent"));
        }
        if (tokens.get() >= request.maxTokens()) {
            return Uni.createFrom()
                    .item(CaseResult.skipped(c, "the run's token budget (" + request.maxTokens() + ") was spent"));
        }
        return cases.run(c, settings)
                .ifNoItem().after(Duration.ofNanos(left)).fail()
                .map(outcome -> {
                    tokens.addAndGet(outcome.tokens());
                    return outcome.result();
                })
                .onFailure(io.smallrye.mutiny.TimeoutException.class)
                .recoverWithItem(
                        () -> CaseResult.skipped(c, "stopped: the run's time budget (" + request.timeout() + ") ran out"))
                .onFailure()
                .recoverWithItem(failure -> CaseResult.skipped(c, "the case could not run: " + failure.getMessage()));
    }

    private Uni<ObjectNode> finish(UUID id, String status, String error) {
        return store.finish(id, status, error)
                .flatMap(finished -> store.find(id))
                .flatMap(run -> store.results(id).map(results -> EvalReport.summary(run.orElseThrow().total(), results)))
                .invoke(summary -> {
                    if ("done".equals(status)) {
                        metrics.lastRun(EvalReport.accuracies(summary), summary.path("hallucinations").asLong());
                    }
                })
                .map(summary -> {
                    ObjectNode event = NODES.objectNode().put("id", id.toString()).put("status", status);
                    if (error != null) {
                        event.put("error", error);
                    }
                    event.set("summary", summary);
                    return event;
                });
    }

    private Uni<Void> setUp(EvalSuite suite) {
        if (suite.fixture().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        fixturesInUse.computeIfAbsent(suite.name(), name -> new AtomicInteger()).incrementAndGet();
        return statements(suite.fixture().get().setup(), 0)
                .onFailure()
                .transform(failure -> new IllegalStateException("the suite's fixture could not be set up on source '"
                        + sql.source() + "' (it needs a role that may create a schema): " + failure.getMessage()));
    }

    private Uni<Void> tearDown(EvalSuite suite) {
        if (suite.fixture().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        // Runs of one suite share its fixture: the last one to end removes it.
        if (fixturesInUse.get(suite.name()).decrementAndGet() > 0) {
            return Uni.createFrom().voidItem();
        }
        return statements(suite.fixture().get().teardown(), 0)
                .onFailure().recoverWithItem(failure -> {
                    Log.warnf("The fixture of suite %s could not be removed: %s", suite.name(), failure.getMessage());
                    return null;
                });
    }

    private Uni<Void> statements(List<String> statements, int index) {
        if (index == statements.size()) {
            return Uni.createFrom().voidItem();
        }
        return sources.find(sql.source()).orElseThrow().executeWriting(statements.get(index))
                .ifNoItem().after(FIXTURE_TIMEOUT).fail()
                .flatMap(done -> statements(statements, index + 1));
    }
}
