package io.sqlagent.workspace.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The in-process models: the quantized one by default, the float one on request, nothing else. */
class InProcessModelTest {

    @Test
    void embedsWithTheQuantizedModelByDefault() {
        Embeddings embeddings = Embeddings.inProcess();

        float[] vector = embeddings.embed("orders placed by customers last month");

        assertThat(embeddings.name()).isEqualTo("all-minilm-l6-v2-q");
        assertThat(vector).hasSize(384);
    }

    @Test
    void theQuantizedModelPlacesTextsAsTheFloatOneDoes() {
        Embeddings quantized = Embeddings.inProcess(InProcessModel.QUANTIZED);
        Embeddings floating = Embeddings.inProcess(" All-MiniLM-L6-v2 ");
        String text = "invoices paid by credit card";

        assertThat(floating.name()).isEqualTo("all-minilm-l6-v2");
        assertThat(cosine(quantized.embed(text), floating.embed(text))).isGreaterThan(0.9);
        assertThat(cosine(quantized.embed(text), quantized.embed("the weather in the mountains"))).isLessThan(0.5);
    }

    @Test
    void manyCallersAtOnceEachGetTheirOwnTextsVectorsInOrder() throws Exception {
        Embeddings embeddings = Embeddings.inProcess();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            texts.add("orders of customer " + i + " by region and month");
        }
        List<float[]> alone = new ArrayList<>();
        for (String text : texts) {
            alone.add(embeddings.embed(text));
        }

        ExecutorService callers = Executors.newFixedThreadPool(16);
        try {
            List<Future<List<float[]>>> lists = new ArrayList<>();
            List<Future<float[]>> singles = new ArrayList<>();
            for (int caller = 0; caller < 16; caller++) {
                int from = caller % 20;
                lists.add(callers.submit(() -> embeddings.embedAll(texts.subList(from, from + 4))));
                singles.add(callers.submit(() -> embeddings.embed(texts.get(from))));
            }
            for (int caller = 0; caller < 16; caller++) {
                int from = caller % 20;
                List<float[]> got = lists.get(caller).get(60, TimeUnit.SECONDS);
                for (int k = 0; k < 4; k++) {
                    assertThat(got.get(k)).as("caller %d, text %d", caller, from + k).isEqualTo(alone.get(from + k));
                }
                assertThat(singles.get(caller).get(60, TimeUnit.SECONDS)).isEqualTo(alone.get(from));
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aQuestionIsNotKeptWaitingBehindThousandsOfDocuments() throws Exception {
        Embeddings embeddings = Embeddings.inProcess();
        List<String> documents = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            documents.add("document " + i + " about the invoices, the customers and the tracks they bought in region " + i);
        }
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<List<float[]>> bulk = caller.submit(() -> embeddings.embedAll(documents));
            Thread.sleep(200); // the documents' runs are under way

            // A search's query and its words are embedded beside them, not after them.
            assertThat(embeddings.embed("which customers bought the most tracks")).hasSize(384);
            assertThat(embeddings.embedAll(List.of("revenue", "genre", "stock"))).hasSize(3);
            assertThat(bulk.isDone()).as("the thousands of documents are still being embedded").isFalse();
            assertThat(bulk.get(300, TimeUnit.SECONDS)).hasSize(2000);
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void refusesAModelItDoesNotShipNamingTheChoices() {
        assertThatThrownBy(() -> Embeddings.inProcess("e5-small-v2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sqlagent.vector.local-model must be all-minilm-l6-v2-q or all-minilm-l6-v2, was 'e5-small-v2'");
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double normA = 0;
        double normB = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            normA += a[i] * a[i];
            normB += b[i] * b[i];
        }
        return dot / Math.sqrt(normA * normB);
    }
}
