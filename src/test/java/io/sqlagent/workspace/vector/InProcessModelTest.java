package io.sqlagent.workspace.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
