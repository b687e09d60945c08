package io.sqlagent.trace;

import java.util.Collection;
import java.util.List;

import jakarta.inject.Singleton;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The spans of the test run, kept in memory (OpenTelemetry's {@link InMemorySpanExporter}, as a CDI
 * bean: Quarkus exports to it, and {@link TraceExport} sees an exporter and records traces). Every
 * test of the run is traced; what a test did not read is dropped past a bound, so a long run does
 * not hold every span it made.
 */
@Singleton
public class TestSpans implements SpanExporter {

    private static final int MAX_KEPT = 20_000;

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();

    @Override
    public CompletableResultCode export(Collection<SpanData> batch) {
        if (spans.getFinishedSpanItems().size() > MAX_KEPT) {
            spans.reset();
        }
        return spans.export(batch);
    }

    /** Every span exported so far (since the last {@link #reset}). */
    public List<SpanData> finished() {
        return spans.getFinishedSpanItems();
    }

    /** Forgets the spans exported so far. */
    public void reset() {
        spans.reset();
    }

    @Override
    public CompletableResultCode flush() {
        return spans.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
