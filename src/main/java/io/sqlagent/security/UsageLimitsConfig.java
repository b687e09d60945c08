package io.sqlagent.security;

import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;

/**
 * Per-principal limits ({@code sqlagent.limits.*}), all off unless set. Each principal has its own
 * allowance; {@code sqlagent.limits.principals."<name>".*} gives one principal other values.
 */
@ConfigMapping(prefix = "sqlagent.limits")
public interface UsageLimitsConfig {

    /** The limits every principal has. */
    @WithParentName
    Allowance defaults();

    /**
     * Other limits for named principals, by principal id ({@code oidc:<issuer>#<subject>},
     * {@code key:<key id>}) or, for an API key, {@code key:<name>}.
     */
    Map<String, Allowance> principals();

    /** One principal's allowance. */
    interface Allowance {

        /** Chat runs ({@code POST /api/chat}) a principal may start per minute; unset: no limit. */
        Optional<Integer> chatRunsPerMinute();

        /** Model tokens (input + output) a principal's chats may use per day (UTC); unset: no limit. */
        Optional<Long> modelTokensPerDay();

        /** Direct tool calls (REST {@code POST /api/tools/{name}} and MCP {@code tools/call}) per minute; unset: no limit. */
        Optional<Integer> toolCallsPerMinute();
    }
}
