package io.sqlagent.eval;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a run is asked to do: the suite (a shipped one by name, or cases sent with the request), a
 * tag selection, and limits at most those configured.
 *
 * @param suite the cases to run
 * @param tags only cases carrying one of these (all when empty)
 * @param concurrency cases at once
 * @param maxTokens token budget of the run
 * @param timeout time budget of the run
 * @param judge whether the model judges each answer too
 */
public record EvalRequest(EvalSuite suite, List<String> tags, int concurrency, long maxTokens, Duration timeout,
        boolean judge) {

    /** The request with limits from the body where given, else from the configuration; never above it. */
    public static EvalRequest of(EvalSuite suite, List<String> tags, Optional<Integer> concurrency, Optional<Long> maxTokens,
            Optional<Duration> timeout, Optional<Boolean> judge, EvalConfig config) {
        return new EvalRequest(suite, tags, Math.min(concurrency.orElse(config.concurrency()), config.concurrency()),
                Math.min(maxTokens.orElse(config.maxTokens()), config.maxTokens()),
                timeout.filter(t -> t.compareTo(config.timeout()) < 0).orElse(config.timeout()), judge.orElse(config.judge()));
    }
}
