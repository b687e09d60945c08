package io.sqlagent.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the agent runs: limits of one run, its system prompt, what goes back to the client. */
@ConfigMapping(prefix = "sqlagent.agent")
public interface AgentConfig {

    /** Model calls in one run; when reached, the model is asked once more, without tools, to answer. */
    @WithDefault("10")
    int maxIterations();

    /** The longest one run may take, model and tools together; then it ends with an error event {@code timeout}. */
    @WithDefault("5m")
    Duration timeout();

    /**
     * The longest the model server may stay silent in a turn — before its first token or between
     * two — before the run ends with {@code model_timeout}. (The client's own
     * {@code quarkus.langchain4j.openai.timeout} covers connecting and the response head.)
     */
    @WithDefault("60s")
    Duration modelTimeout();

    /** Replaces the built-in system prompt (text). Takes precedence over {@link #systemPromptFile()}. */
    Optional<String> systemPrompt();

    /** Replaces the built-in system prompt with this file's text (UTF-8). */
    Optional<Path> systemPromptFile();

    /** The longest question accepted, in characters. */
    @WithDefault("8000")
    int maxQuestionLength();

    /** How many earlier messages of a conversation the model sees with a follow-up question. */
    @WithDefault("60")
    int historyMessages();

    /** The longest tool result or error sent in a {@code tool_result} event, in characters (the model gets all of it). */
    @WithDefault("2000")
    int eventResultMaxChars();

    /**
     * Model text is held until this many characters arrive or the turn ends, to tell reasoning
     * before tool calls ({@code thinking}) from the answer ({@code content}).
     */
    @WithDefault("160")
    int thinkingLookahead();

    /**
     * Model calls in flight at once, each on its own connection to the model server; more wait
     * for one. Runs beyond this many share the model's connections, so set it at least to the
     * number of conversations expected to run at the same time. The default carries 500: at 50,
     * 500 conversations with 2-second model turns waited 35 s each for a connection while the
     * CPU idled (docs/benchmarks.md).
     */
    @WithDefault("500")
    int modelConnections();

    /**
     * The most characters one model turn may stream (answer, reasoning and tool-call arguments
     * together); past it the model's stream is stopped and the run ends with {@code error}
     * {@code answer_too_long}. It bounds what a run holds in memory for a model that never stops.
     */
    @WithDefault("200000")
    int maxAnswerChars();

    /**
     * Events held for a client that reads slower than the run produces them; when a client falls
     * further behind, its stream is closed and the run cancelled, rather than buffered for.
     */
    @WithDefault("1000")
    int maxBufferedEvents();
}
