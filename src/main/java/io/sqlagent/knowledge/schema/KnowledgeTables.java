package io.sqlagent.knowledge.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.LearningConfig;

/** The tables the knowledge base points at for a question: one of the rankings {@link SchemaSearch} fuses. */
final class KnowledgeTables {

    private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_$]*(?:\\.[\\p{L}_][\\p{L}\\p{N}_$]*)?");
    private static final int KNOWLEDGE_HITS = 10;

    private KnowledgeTables() {
    }

    /**
     * Tables the knowledge base's best hits for {@code query} name: the tables a pattern uses and the identifiers in its
     * SQL, the title of a table note, the identifiers in a learning's SQL. Only names of indexed tables count in the
     * end, so a hidden table named here is never revealed. A store that cannot answer leaves the knowledge out.
     */
    static Uni<List<String>> named(KnowledgeStore knowledge, LearningConfig learning, String query) {
        Optional<String> words = KnowledgeStore.anyWordQuery(query);
        if (words.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Uni<List<String>> fromPatterns = knowledge.searchPatterns(words.get(), KNOWLEDGE_HITS).map(hits -> {
            List<String> named = new ArrayList<>();
            hits.forEach(hit -> {
                named.addAll(hit.tablesUsed());
                identifiers(hit.sql(), named);
            });
            return named;
        });
        Uni<List<String>> fromLearnings = knowledge.searchLearnings(words.get(), KNOWLEDGE_HITS, learning.enabled())
                .map(hits -> {
                    List<String> named = new ArrayList<>();
                    hits.forEach(hit -> {
                        named.add(hit.title());
                        identifiers(hit.sql(), named);
                    });
                    return named;
                });
        return Uni.combine().all().unis(fromPatterns, fromLearnings).asTuple()
                .map(both -> {
                    List<String> named = new ArrayList<>(both.getItem1());
                    named.addAll(both.getItem2());
                    return named;
                })
                .onFailure().recoverWithItem(failure -> {
                    Log.debugf("search_schema without the knowledge base: %s", failure.getMessage());
                    return List.of();
                });
    }

    private static void identifiers(String text, List<String> into) {
        if (text == null) {
            return;
        }
        Matcher matcher = IDENTIFIER.matcher(text);
        while (matcher.find()) {
            into.add(matcher.group());
        }
    }
}
