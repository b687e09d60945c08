package io.sqlagent.workspace.vector;

import java.nio.file.Path;
import java.time.Duration;

/** Vector settings given outright, for stores and embeddings built outside CDI. */
record TestVectorConfig(Path path, String embedding, Duration syncInterval, Duration changeRetention) implements VectorConfig {

    @Override
    public Duration closeTimeout() {
        return Duration.ofSeconds(2);
    }

    @Override
    public String localModel() {
        return InProcessModel.QUANTIZED;
    }

    @Override
    public Metadata metadata() {
        return MetadataLimits.DEFAULTS;
    }

    /** Local embeddings, following the store every 200 ms. */
    static TestVectorConfig at(Path path) {
        return new TestVectorConfig(path, "local", Duration.ofMillis(200), Duration.ofDays(7));
    }
}
