package io.sqlagent.builtin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.KnowledgeStore.LearningHit;
import io.sqlagent.knowledge.KnowledgeStore.PatternHit;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.TypedTool;

/**
 * {@code search_knowledge}: full-text search over the knowledge base, ranked by PostgreSQL
 * ({@code ts_rank_cd}; names and questions weigh more than SQL and summaries). Any word of the
 * query may match, so a partial match still ranks. Learnings include the table notes and business
 * rules of the knowledge files; saved learnings only while learning is enabled.
 */
@Singleton
@ToolDefinition(name = "search_knowledge", title = "Search knowledge", namespace = "knowledge", tags = { "knowledge", "search",
        "patterns",
        "learnings" }, readOnly = true, auditArguments = true, description = "Search the knowledge base for relevant query patterns and learnings. Use this to find similar queries, understand business logic, or discover past learnings about the database.", returns = "{\"query_patterns\":[{name,question,sql,summary,tables_used,relevance_score}],"
                + "\"learnings\":[{title,description,category,sql,relevance_score}],\"total_found\":n}; best first", usage = "Search before writing SQL: reuse proven patterns and avoid known pitfalls.")
public class SearchKnowledgeTool extends TypedTool<SearchKnowledgeTool.Arguments> {

    private static final int DEFAULT_LIMIT = 5;

    private final KnowledgeStore store;
    private final LearningConfig learning;

    SearchKnowledgeTool(KnowledgeStore store, LearningConfig learning) {
        this.store = store;
        this.learning = learning;
    }

    /** Arguments of {@code search_knowledge}. */
    public record Arguments(
            @Param(description = "The search query to find relevant knowledge.", maxLength = 2000) String query,
            @Param(description = "Filter results: 'all' (default), 'patterns' (saved query patterns), or 'learnings' (discovered fixes/gotchas).", allowed = {
                    "all", "patterns", "learnings" }) Optional<String> type,
            @Param(description = "Maximum number of results to return.", minimum = 1, maximum = 20) Optional<Integer> limit){
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        String type = arguments.type().orElse("all");
        int limit = arguments.limit().orElse(DEFAULT_LIMIT);
        Optional<String> tsquery = KnowledgeStore.anyWordQuery(arguments.query());
        if (tsquery.isEmpty()) {
            return Uni.createFrom().item(answer(List.of(), List.of()));
        }
        Uni<List<PatternHit>> patterns = type.equals("learnings") ? Uni.createFrom().item(List.of())
                : store.searchPatterns(tsquery.get(), limit);
        Uni<List<LearningHit>> learnings = type.equals("patterns") ? Uni.createFrom().item(List.of())
                : store.searchLearnings(tsquery.get(), limit, learning.enabled());
        return Uni.combine().all().unis(patterns, learnings).asTuple()
                .map(found -> best(found.getItem1(), found.getItem2(), limit));
    }

    /** The best {@code limit} hits of both kinds together: the limit bounds the whole answer. */
    private static Map<String, Object> best(List<PatternHit> patterns, List<LearningHit> learnings, int limit) {
        record Ranked(double rank, Object hit) {
        }
        List<Ranked> all = new ArrayList<>();
        patterns.forEach(hit -> all.add(new Ranked(hit.rank(), hit)));
        learnings.forEach(hit -> all.add(new Ranked(hit.rank(), hit)));
        // Stable sort: on equal rank patterns stay ahead, each list keeps its order.
        all.sort(Comparator.comparingDouble(Ranked::rank).reversed());
        List<Map<String, Object>> keptPatterns = new ArrayList<>();
        List<Map<String, Object>> keptLearnings = new ArrayList<>();
        for (Ranked ranked : all.subList(0, Math.min(limit, all.size()))) {
            if (ranked.hit() instanceof PatternHit hit) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("name", hit.name());
                item.put("question", hit.question());
                item.put("sql", hit.sql());
                item.put("summary", hit.summary());
                item.put("tables_used", hit.tablesUsed());
                item.put("relevance_score", hit.relevanceScore());
                keptPatterns.add(item);
            } else if (ranked.hit() instanceof LearningHit hit) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("title", hit.title());
                item.put("description", hit.description());
                item.put("category", hit.category());
                item.put("sql", hit.sql());
                item.put("relevance_score", hit.relevanceScore());
                keptLearnings.add(item);
            }
        }
        return answer(keptPatterns, keptLearnings);
    }

    private static Map<String, Object> answer(List<?> patterns, List<?> learnings) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("query_patterns", patterns);
        answer.put("learnings", learnings);
        answer.put("total_found", patterns.size() + learnings.size());
        return answer;
    }
}
