package io.sqlagent.trace;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;

import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.quarkus.logging.Log;
import io.quarkus.opentelemetry.runtime.AutoConfiguredOpenTelemetrySdkBuilderCustomizer;

/**
 * Traces are recorded only when something receives them: an OTLP endpoint is configured
 * ({@code quarkus.otel.exporter.otlp.endpoint} or {@code quarkus.otel.exporter.otlp.traces.endpoint},
 * e.g. {@code QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4317}) or the application
 * provides a {@link SpanExporter} bean (the tests' in-memory one). Otherwise every span is sampled
 * out: the SDK stays on, so each request still gets a trace id (in the {@code done} and
 * {@code error} events, the audit log and the log lines, to correlate them), but nothing is
 * recorded and nothing is sent. Quarkus itself would export to {@code localhost:4317} when no
 * endpoint is set, and log a failure for every batch when no collector listens there; sampling
 * the spans out means the exporter never has anything to send. When traces are recorded, the
 * configured sampler decides ({@code quarkus.otel.traces.sampler}, {@code quarkus.otel.traces.sampler.arg}).
 */
@Singleton
public class TraceExport implements AutoConfiguredOpenTelemetrySdkBuilderCustomizer {

    static final String ENDPOINT = "quarkus.otel.exporter.otlp.endpoint";
    static final String TRACES_ENDPOINT = "quarkus.otel.exporter.otlp.traces.endpoint";

    /** The lowest ordinal of a configuration source a person writes (the properties file is 250). */
    private static final int USER_SOURCES = 100;

    private final boolean exporting;

    TraceExport(Config config, Instance<SpanExporter> exporters) {
        boolean endpoint = configured(config, ENDPOINT) || configured(config, TRACES_ENDPOINT);
        this.exporting = endpoint || !exporters.isUnsatisfied();
        if (endpoint) {
            // Not the URL itself: it may carry a credential.
            Log.info("Traces are recorded and exported to the configured OTLP endpoint");
        }
    }

    /** Whether spans are recorded (and exported). */
    public boolean exporting() {
        return exporting;
    }

    @Override
    public void customize(AutoConfiguredOpenTelemetrySdkBuilder builder) {
        if (!exporting) {
            builder.addSamplerCustomizer((configured, properties) -> Sampler.alwaysOff());
        }
    }

    /**
     * Whether someone set {@code property}: Quarkus gives the endpoint a default
     * ({@code http://localhost:4317/}), which only a value from a real source (the properties file,
     * the environment, a system property: ordinals of 100 and more) overrides.
     */
    private static boolean configured(Config config, String property) {
        ConfigValue value = config.getConfigValue(property);
        return value != null && value.getValue() != null && !value.getValue().isBlank()
                && value.getSourceOrdinal() >= USER_SOURCES;
    }
}
