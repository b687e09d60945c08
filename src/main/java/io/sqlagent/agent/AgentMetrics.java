package io.sqlagent.agent;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The agent's metrics: {@code sqlagent_agent_runs_total{outcome}},
 * {@code sqlagent_agent_run_duration_seconds{outcome}}, {@code sqlagent_agent_iterations} (model
 * calls per run) and {@code sqlagent_agent_tokens_total{type=input|output}}. SQL errors and saved
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
    void run(String outcome, int modelCalls, Duration duration, long inputTokens, long outputTokens) {
        meters.counter("sqlagent.agent.runs", "outcome", outcome).increment();
        Timer.builder("sqlagent.agent.run.duration").description("Agent run duration").tag("outcome", outcome)
                .register(meters).record(duration);
        iterations.record(modelCalls);
        if (inputTokens > 0) {
            meters.counter("sqlagent.agent.tokens", "type", "input").increment(inputTokens);
        }
        if (outputTokens > 0) {
            meters.counter("sqlagent.agent.tokens", "type", "output").increment(outputTokens);
        }
    }
}
