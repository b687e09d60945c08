package io.sqlagent.trace;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * What the service's spans record beyond the defaults. Whether spans are recorded and exported at
 * all is OpenTelemetry's own configuration ({@code quarkus.otel.*}, see {@link TraceExport}).
 */
@ConfigMapping(prefix = "sqlagent.tracing")
public interface TracingConfig {

    /**
     * Put each SQL statement's text on its span ({@code db.query.text}). Off by default: the
     * statements the model writes may hold values from the question (names, e-mail addresses) that
     * a trace store should not keep.
     */
    @WithDefault("false")
    boolean statementText();
}
