package io.sqlagent.agent;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The agent's metrics: {@code sqlagent_agent_runs_total{outcome}},
 * {@code sqlagent_agent_run_duration_seconds{outcome}} (a histogram, buckets in
 * {@link io.sqlagent.metrics.DurationHistograms}), {@code sqlagent_agent_iterations} (model calls per
 * run) and {@code sqlagent_agent_tokens_total{type=input|output}}. Each model call is timed by
 * quarkus-langchain4j ({@code gen_ai_client_operation_duration_seconds}). SQL errors and saved
 * knowledge have their own ({@code sqlagent_sql_errors_total}, {@code sqlagent_knowledge_saved_total}).
 */
@ApplicationScoped
public class AgentMetrics {

    private final MeterRegistry meters;
    private final DistributionSummary iterations;

    AgentMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.iterations = DistributionSummary.builder("sqlagent.agent.iterations")
                .description("Model calls per agent run").publishPercentileHistogram().maximumExpectedValue(50.0)
                .register(meters);
    }

    /** Records a finished run. */
    public void run(String outcome, int modelCalls, Duration duration, long inputTokens, long outputTokens) {
        Counter.builder("sqlagent.agent.runs").description("Agent runs, by how they ended").tag("outcome", outcome)
                .register(meters).increment();
        Timer.builder("sqlagent.agent.run.duration").description("Time from a question to the end of its agent run")
                .tag("outcome", outcome).register(meters).record(duration);
        iterations.record(modelCalls);
        if (inputTokens > 0) {
            tokens("input").increment(inputTokens);
        }
        if (outputTokens > 0) {
            tokens("output").increment(outputTokens);
        }
    }

    private Counter tokens(String type) {
        return Counter.builder("sqlagent.agent.tokens").description("Model tokens used by agent runs, input and output")
                .tag("type", type).register(meters);
    }
}
