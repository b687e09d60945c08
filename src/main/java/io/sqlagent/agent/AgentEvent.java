package io.sqlagent.agent;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One step of an agent run, as the client sees it. Each becomes one server-sent event: its
 * {@link #event()} is the SSE {@code event:} field and the record, in snake_case JSON, its
 * {@code data:}. A run's events end with exactly one {@link Done} or one {@link Error}.
 */
public sealed interface AgentEvent permits AgentEvent.Conversation, AgentEvent.Thinking, AgentEvent.ToolCallEvent,
        AgentEvent.ToolResultEvent, AgentEvent.Content, AgentEvent.Done, AgentEvent.Error {

    /** The SSE event name. */
    @JsonIgnore
    String event();

    /** The conversation the run belongs to (new or continued); always the first event. */
    record Conversation(String conversationId) implements AgentEvent {
        @Override
        public String event() {
            return "conversation";
        }
    }

    /** Model text that is not the answer: reasoning, or what it says before calling tools. */
    record Thinking(String delta) implements AgentEvent {
        @Override
        public String event() {
            return "thinking";
        }
    }

    /** The model asked for a tool call; {@code arguments} is the JSON object it sent (or its raw text if malformed). */
    record ToolCallEvent(String id, String name, JsonNode arguments) implements AgentEvent {
        @Override
        public String event() {
            return "tool_call";
        }
    }

    /**
     * A tool call ended: its result (on success) or error, cut to a configured length with
     * {@code truncated} set when cut. The model always gets the whole result.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ToolResultEvent(String id, String name, boolean ok, long durationMs, JsonNode result, String error,
            String outcome, Boolean truncated) implements AgentEvent {
        @Override
        public String event() {
            return "tool_result";
        }
    }

    /** A piece of the answer. */
    record Content(String delta) implements AgentEvent {
        @Override
        public String event() {
            return "content";
        }
    }

    /** Tokens the model used in the run. */
    record Usage(long inputTokens, long outputTokens) {
    }

    /**
     * The run ended normally.
     *
     * @param stopReason {@code answer}, {@code max_iterations} (the cap was reached; the model was
     *        asked to answer without tools) or {@code stopped} (a tool ended the run)
     * @param traceId the run's trace id (its spans, its audit records and its log lines carry it);
     *        absent only when OpenTelemetry is disabled ({@code quarkus.otel.sdk.disabled})
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Done(int iterations, long durationMs, Usage usage, String stopReason, String traceId) implements AgentEvent {

        public Done(int iterations, long durationMs, Usage usage, String stopReason) {
            this(iterations, durationMs, usage, stopReason, null);
        }

        /** This ending, naming the trace it belongs to. */
        public Done withTraceId(String id) {
            return new Done(iterations, durationMs, usage, stopReason, id);
        }

        @Override
        public String event() {
            return "done";
        }
    }

    /**
     * The run ended with an error; {@code code} is stable, {@code message} says what to do,
     * {@code traceId} is as in {@link Done}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Error(String code, String message, String traceId) implements AgentEvent {

        public Error(String code, String message) {
            this(code, message, null);
        }

        /** This error, naming the trace it belongs to. */
        public Error withTraceId(String id) {
            return new Error(code, message, id);
        }

        @Override
        public String event() {
            return "error";
        }
    }
}
