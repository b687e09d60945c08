package io.sqlagent.eval.rest;

import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.MessageText;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.eval.CaseFileException;
import io.sqlagent.eval.CaseFiles;
import io.sqlagent.eval.EvalConfig;
import io.sqlagent.eval.EvalReport;
import io.sqlagent.eval.EvalRequest;
import io.sqlagent.eval.EvalService;
import io.sqlagent.eval.EvalStore;
import io.sqlagent.eval.EvalSuite;
import io.sqlagent.eval.HtmlReport;
import io.sqlagent.http.ApiException;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.http.OnWrongType;
import io.sqlagent.http.StrictBodies;
import io.sqlagent.security.CallerResolver;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /api/evals}: start a run of a shipped suite, of cases sent with the request or of a tag
 * selection; follow it as server-sent events; read its report as JSON or HTML; compare two runs.
 */
@Path("/api/evals")
@Tag(name = "Evals", description = "Evaluation runs of the agent: accuracy, trajectory and cost per case")
public class EvalResource {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private static final java.time.Duration LOOKUP_TIMEOUT = java.time.Duration.ofSeconds(10);

    /** The scope that reads every eval run's report and events; a run's own principal needs none. */
    public static final String EVAL_SCOPE = "eval:read";

    private final EvalService evals;
    private final CallerResolver callers;
    private final EvalStore store;
    private final EvalConfig config;

    EvalResource(EvalService evals, EvalStore store, EvalConfig config, CallerResolver callers) {
        this.callers = callers;
        this.evals = evals;
        this.store = store;
        this.config = config;
    }

    /** A request refused before anything runs or is written (answered by io.sqlagent.http.ErrorMapper). */
    static final class Refused extends ApiException {
        private static final long serialVersionUID = 1L;

        Refused(int status, String code, String message) {
            super(status, ErrorBody.of(code, message));
        }
    }

    @GET
    @Path("/suites")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The suites shipped with the service", description = "[{name, description, cases, categories}]")
    public List<ObjectNode> suites() {
        List<ObjectNode> suites = new ArrayList<>();
        for (String name : CaseFiles.SHIPPED) {
            EvalSuite suite = CaseFiles.shipped(name).orElseThrow();
            ObjectNode node = SnakeCaseJson.MAPPER.createObjectNode().put("name", name).put("description", suite.description())
                    .put("cases", suite.cases().size());
            node.set("categories", io.sqlagent.SnakeCaseJson.MAPPER
                    .valueToTree(suite.cases().stream().map(c -> c.category()).distinct().sorted().toList()));
            suites.add(node);
        }
        return suites;
    }

    @POST
    @Path("/runs")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @Blocking // parses a case list that may be large YAML
    @Operation(summary = "Start an eval run", description = "Body {\"suite\": \"chinook\"} or {\"cases\": [case, …]} or {\"yaml\": \"<case file>\"}, "
            + "optional tags [names], concurrency, max_tokens, timeout (\"10m\"), judge (bool). Answers 202 {\"id\"} at once; "
            + "follow GET /api/evals/runs/{id}/events.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.OBJECT), examples = {
            @ExampleObject(name = "suite", summary = "The shipped Chinook set", value = "{\"suite\": \"chinook\"}"),
            @ExampleObject(name = "smoke", summary = "Only cases tagged smoke, two at a time", value = "{\"suite\": \"chinook\", \"tags\": [\"smoke\"], \"concurrency\": 2}")
    }))
    @APIResponse(responseCode = "202", description = "The run started: {\"id\"}")
    @APIResponse(responseCode = "400", description = "A bad body, suite, case list, tag, budget or field", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "403", description = "The caller lacks scope admin", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @CustomDeserialization(StrictBodies.class)
    public Uni<RestResponse<ObjectNode>> start(@Valid RunRequest body, @Context RoutingContext http) {
        Caller caller = authorizeStart(http);
        EvalRequest request = request(body);
        return evals.start(request, caller).map(id -> RestResponse.ResponseBuilder
                .<ObjectNode> create(RestResponse.Status.ACCEPTED)
                .location(URI.create("/api/evals/runs/" + id))
                .entity(SnakeCaseJson.MAPPER.createObjectNode().put("id", id.toString()))
                .build());
    }

    /**
     * The one place where starting a run is authorised. A run spends model tokens and, for suites
     * with a fixture, creates and drops a schema in the source, so it is an administrator's action:
     * scope {@code admin} (every caller has it with {@code sqlagent.auth.mode=none}).
     */
    private Caller authorizeStart(RoutingContext http) {
        Caller caller = callers.of(http).await().atMost(LOOKUP_TIMEOUT);
        if (!caller.has(Caller.ADMIN)) {
            throw new ApiException(403, ErrorBody.of("forbidden", "Starting an eval run needs scope admin; "
                    + caller.name() + " does not have it"));
        }
        return caller;
    }

    /**
     * A stored run the caller may read: its own, or any with scope {@value #EVAL_SCOPE} (or {@code admin}). Another
     * principal's run is answered as not found, as a conversation is, so run ids reveal nothing.
     */
    private Uni<EvalStore.Run> readable(String id, UUID run, RoutingContext http) {
        return callers.of(http).flatMap(caller -> store.find(run).map(found -> found
                .filter(stored -> caller.has(EVAL_SCOPE) || caller.name().equals(stored.principal()))
                .orElseThrow(() -> notFound(id))));
    }

    @GET
    @Path("/runs/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A run's report", description = "{id, status: running|done|failed, model, summary: {total, passed, accuracy, by_category, "
            + "hallucinations, tokens, …}, cases: [{id, category, passed, grades, sql, answer, turns}]}")
    public Uni<ObjectNode> report(@PathParam("id") String id, @Context RoutingContext http) {
        UUID run = uuid(id);
        return readable(id, run, http).flatMap(found -> store.results(run).map(results -> EvalReport.of(found, results)));
    }

    @GET
    @Path("/runs/{id}/report.html")
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "A run's report as a self-contained HTML page")
    public Uni<String> html(@PathParam("id") String id, @Context RoutingContext http) {
        return report(id, http).map(HtmlReport::of);
    }

    @GET
    @Path("/runs/{id}/compare/{other}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Compare a run with a baseline run", description = "{run, baseline, fixed: [case ids failed in the baseline, passed in the run], "
            + "broken: [passed there, failed here], unchanged, only_in_run, only_in_baseline, accuracy: {run, baseline, change}}")
    public Uni<ObjectNode> compare(@PathParam("id") String id, @PathParam("other") String other,
            @Context RoutingContext http) {
        UUID run = uuid(id);
        UUID baseline = uuid(other);
        return readable(id, run, http).flatMap(found -> readable(other, baseline, http)
                .flatMap(base -> store.results(run).flatMap(results -> store.results(baseline)
                        .map(baseResults -> EvalReport.compare(found, results, base, baseResults)))));
    }

    @GET
    @Path("/runs/{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "A run's progress as server-sent events", description = "started {id, suite, model, total}, then case {id, category, passed, done, total, tokens} "
            + "per case, then done {id, status, summary}. A run that already ended sends its done event only.")
    @Blocking // only to look the run up before answering: a 404 cannot follow the 200 of an event stream
    public Multi<OutboundSseEvent> events(@PathParam("id") String id, @Context Sse sse, @Context RoutingContext http) {
        UUID run = uuid(id);
        // The run is recorded before its id is answered, so a live run is found here too, with its owner.
        var found = readable(id, run, http).await().atMost(LOOKUP_TIMEOUT);
        Optional<Multi<io.sqlagent.eval.RunProgress.Event>> live = evals.progress(run);
        if (live.isPresent()) {
            return live.get().map(event -> sse(sse, event.name(), event.data()));
        }
        return store.results(run).map(results -> {
            ObjectNode done = SnakeCaseJson.MAPPER.createObjectNode().put("id", id).put("status", found.status());
            if (found.error() != null) {
                done.put("error", found.error());
            }
            done.set("summary", EvalReport.summary(found.total(), results));
            return sse(sse, "done", done);
        }).toMulti();
    }

    /** What {@code POST /api/evals/runs} takes, with what each field must be. */
    @OnWrongType("invalid_body: The body must be a JSON object such as {\"suite\": \"chinook\"}")
    public record RunRequest(
            @OnWrongType("invalid_suite: suite must be the name of a shipped suite (GET /api/evals/suites)") String suite,
            JsonNode cases,
            @OnWrongType("invalid_cases: yaml must be the text of a case file") String yaml,
            @OnWrongType(INVALID_TAGS) List<@NotBlank(message = INVALID_TAGS) String> tags,
            @OnWrongType(INVALID_CONCURRENCY) @Min(value = 1, message = INVALID_CONCURRENCY) Integer concurrency,
            @OnWrongType(INVALID_MAX_TOKENS) @Min(value = 1, message = INVALID_MAX_TOKENS) Integer maxTokens,
            @OnWrongType(INVALID_TIMEOUT) String timeout,
            @OnWrongType("invalid_judge: judge must be true or false") Boolean judge) {
    }

    private static final String ONE_SUITE = "Give exactly one of suite (a shipped suite: " + CaseFiles.SHIPPED
            + "), cases (a list of cases) or yaml (a case file's text)";
    private static final String INVALID_TAGS = "invalid_tags: tags must be a list of tag names, such as [\"smoke\"]";
    private static final String INVALID_CONCURRENCY = "invalid_concurrency: concurrency must be a whole number of at least 1";
    private static final String INVALID_MAX_TOKENS = "invalid_max_tokens: max_tokens must be a whole number of at least 1";
    private static final String TIMEOUT_PROBLEM = "timeout must be a duration such as \"90s\", \"10m\", \"1h\" or \"PT10M\"";
    private static final String INVALID_TIMEOUT = "invalid_timeout: " + TIMEOUT_PROBLEM;

    private EvalRequest request(RunRequest body) {
        if (body == null) {
            throw bad("invalid_suite", ONE_SUITE);
        }
        int given = (body.suite() != null ? 1 : 0) + (body.cases() != null ? 1 : 0) + (body.yaml() != null ? 1 : 0);
        if (given != 1) {
            throw bad("invalid_suite", ONE_SUITE);
        }
        return EvalRequest.of(suite(body), Objects.requireNonNullElse(body.tags(), List.of()),
                Optional.ofNullable(body.concurrency()), Optional.ofNullable(body.maxTokens()).map(Integer::longValue),
                Optional.ofNullable(body.timeout()).map(EvalResource::duration), Optional.ofNullable(body.judge()), config);
    }

    private static EvalSuite suite(RunRequest body) {
        if (body.suite() != null) {
            return CaseFiles.shipped(body.suite()).orElseThrow(() -> new Refused(404, "unknown_suite",
                    "No suite is named '" + abbreviate(body.suite()) + "'; the shipped suites are " + CaseFiles.SHIPPED));
        }
        EvalSuite uploaded;
        try {
            uploaded = body.yaml() != null ? CaseFiles.parseYaml(body.yaml(), "uploaded")
                    : CaseFiles.parse(body.cases(), "uploaded");
        } catch (CaseFileException e) {
            throw bad("invalid_cases", e.getMessage());
        }
        if (uploaded.fixture().isPresent()) {
            // A fixture runs its statements on the source as they are: only the service's own suites may have one.
            throw bad("invalid_cases", "An uploaded case list cannot have a fixture; only suites shipped with the service can");
        }
        return uploaded;
    }

    private static Duration duration(String text) {
        Matcher m = SHORT_DURATION.matcher(text);
        Duration duration;
        try {
            duration = !m.matches() ? Duration.parse(text) : switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(Long.parseLong(m.group(1)));
                case "s" -> Duration.ofSeconds(Long.parseLong(m.group(1)));
                case "m" -> Duration.ofMinutes(Long.parseLong(m.group(1)));
                default -> Duration.ofHours(Long.parseLong(m.group(1)));
            };
        } catch (DateTimeParseException e) {
            throw bad("invalid_timeout", TIMEOUT_PROBLEM);
        }
        if (duration.isNegative() || duration.isZero()) {
            throw bad("invalid_timeout", "timeout must be longer than zero");
        }
        return duration;
    }

    private static UUID uuid(String id) {
        try {
            if (id.length() == 36) {
                return UUID.fromString(id);
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw bad("invalid_run_id", "A run id is the UUID POST /api/evals/runs answered with");
    }

    private static Refused notFound(String id) {
        return new Refused(404, "run_not_found", "No eval run has the id " + id);
    }

    private static Refused bad(String code, String message) {
        return new Refused(400, code, message);
    }

    private static String abbreviate(String text) {
        return MessageText.shorten(text, 64);
    }

    /** No media type: RESTEasy would write it as a {@code content-type:} line, which is no SSE field. */
    private static OutboundSseEvent sse(Sse sse, String name, ObjectNode data) {
        return sse.newEventBuilder().name(name).data(String.class, data.toString()).build();
    }
}
