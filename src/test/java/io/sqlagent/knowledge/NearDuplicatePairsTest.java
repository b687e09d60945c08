package io.sqlagent.knowledge;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.smallrye.config.WithDefault;
import io.sqlagent.workspace.vector.Embeddings;

/**
 * Near-duplicate detection measured on labelled pairs ({@code knowledge/near-duplicates.tsv}): learnings, query
 * patterns and validated queries that say the same in other words, and ones about the same tables or topic that say
 * something else. Each pair is embedded as {@code save_learning} embeds a learning ({@link LearningEmbeddings}) and
 * judged a duplicate when the cosine reaches the shipped {@code sqlagent.learning.duplicate-similarity}; the precision
 * and recall of that judgement stay at 0.9 or more. The figures are in docs/knowledge.md, "Near-duplicates".
 */
class NearDuplicatePairsTest {

    private static final String PAIRS = "/knowledge/near-duplicates.tsv";

    private record Pair(boolean same, String kind, String left, String right, double similarity) {
    }

    private static List<Pair> pairs;

    @BeforeAll
    static void embedThePairs() throws IOException {
        LearningEmbeddings embeddings = new LearningEmbeddings(null,
                Embeddings.inProcess());
        pairs = new ArrayList<>();
        for (String line : lines()) {
            String[] fields = line.split("\t");
            String left = LearningEmbeddings.text(fields[2], fields[3]);
            String right = LearningEmbeddings.text(fields[4], fields[5]);
            double similarity = LearningEmbeddings.cosine(embed(embeddings, left), embed(embeddings, right));
            pairs.add(new Pair(fields[0].equals("same"), fields[1], left, right, similarity));
        }
    }

    private static Float[] embed(LearningEmbeddings embeddings, String text) {
        return embeddings.embed(text).await().atMost(Duration.ofMinutes(2));
    }

    private static List<String> lines() throws IOException {
        try (InputStream in = NearDuplicatePairsTest.class.getResourceAsStream(PAIRS)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        }
    }

    @Test
    void theSetHasSixtyLabelledPairsOfEveryKind() {
        assertTrue(pairs.size() >= 60, "pairs: " + pairs.size());
        assertTrue(pairs.stream().map(Pair::kind).toList().containsAll(List.of("learning", "pattern", "query")));
        assertTrue(pairs.stream().filter(Pair::same).count() >= 30, "paraphrases");
        assertTrue(pairs.stream().filter(pair -> !pair.same()).count() >= 30, "different pairs");
    }

    @Test
    void theShippedThresholdFindsParaphrasesAndLeavesDifferentLearnings() throws Exception {
        double threshold = Double.parseDouble(
                LearningConfig.class.getMethod("duplicateSimilarity").getAnnotation(WithDefault.class).value());
        int truePositives = 0;
        int falsePositives = 0;
        int falseNegatives = 0;
        List<String> wrong = new ArrayList<>();
        for (Pair pair : pairs) {
            boolean flagged = pair.similarity() >= threshold;
            if (flagged && pair.same()) {
                truePositives++;
            } else if (flagged) {
                falsePositives++;
                wrong.add(String.format("flagged at %.3f: %s | %s", pair.similarity(), pair.left(), pair.right()));
            } else if (pair.same()) {
                falseNegatives++;
                wrong.add(String.format("missed at %.3f: %s | %s", pair.similarity(), pair.left(), pair.right()));
            }
        }
        double precision = truePositives / (double) Math.max(1, truePositives + falsePositives);
        double recall = truePositives / (double) Math.max(1, truePositives + falseNegatives);
        System.out.printf("near-duplicates at %.2f: precision %.3f, recall %.3f%n", threshold, precision, recall);

        assertTrue(precision >= 0.9, "precision " + precision + "; " + wrong);
        assertTrue(recall >= 0.9, "recall " + recall + "; " + wrong);
    }
}
