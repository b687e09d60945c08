package io.sqlagent.eval;

import java.math.BigDecimal;
import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How evaluation runs run and grade; a run's request may lower the limits but never raise them. */
@ConfigMapping(prefix = "sqlagent.eval")
public interface EvalConfig {

    /** Cases of one run asked at the same time. */
    @WithDefault("4")
    int concurrency();

    /** Model tokens (input and output) one run may use; once spent, the cases not yet started are skipped. */
    @WithDefault("5000000")
    long maxTokens();

    /** The longest one run may take; then cases still running are stopped and the rest skipped. */
    @WithDefault("30m")
    Duration timeout();

    /** Runs at once on this replica; more are refused with 429. */
    @WithDefault("2")
    int maxRuns();

    /** Numbers within this absolute difference are equal (execution and answer match). */
    @WithDefault("0.005")
    BigDecimal absoluteTolerance();

    /** Numbers within this fraction of the larger are equal (execution and answer match). */
    @WithDefault("0.000001")
    BigDecimal relativeTolerance();

    /** Whether the model also judges each answer against the question and the golden result (an extra model call per turn). */
    @WithDefault("false")
    boolean judge();
}
