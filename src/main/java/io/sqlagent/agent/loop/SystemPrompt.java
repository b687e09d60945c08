package io.sqlagent.agent.loop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.runtime.Startup;
import io.sqlagent.ClasspathText;
import io.sqlagent.agent.AgentConfig;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.sql.SqlConfig;

/**
 * The system prompt of every run: the built-in one ({@code agent/system-prompt.txt}) or the
 * operator's ({@code sqlagent.agent.system-prompt} / {@code system-prompt-file}), with its
 * placeholders filled in: {@code {{date}}}, {@code {{database}}}, {@code {{max_rows}}} and
 * {@code {{learning}}} — the instructions for the save tools when learning is on, nothing when off.
 */
@Startup // a missing prompt file stops the start, not the first question
@ApplicationScoped
public class SystemPrompt {

    private final String template;
    private final String learning;
    private final String database;
    private final int maxRows;
    private final Clock clock;

    @Inject
    SystemPrompt(AgentConfig agent, LearningConfig learningConfig, SqlConfig sql) {
        this(template(agent), learningConfig.enabled() ? ClasspathText.require("agent/learning-prompt.txt") : "",
                "source '" + sql.source() + "'", sql.maxRows(), Clock.systemDefaultZone());
    }

    SystemPrompt(String template, String learning, String database, int maxRows, Clock clock) {
        this.template = template;
        this.learning = learning;
        this.database = database;
        this.maxRows = maxRows;
        this.clock = clock;
    }

    private static String template(AgentConfig agent) {
        if (agent.systemPrompt().filter(text -> !text.isBlank()).isPresent()) {
            return agent.systemPrompt().get();
        }
        if (agent.systemPromptFile().isPresent()) {
            Path file = agent.systemPromptFile().get();
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException("sqlagent.agent.system-prompt-file: cannot read " + file.toAbsolutePath()
                        + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
            }
        }
        return ClasspathText.require("agent/system-prompt.txt");
    }

    /** The prompt for a run starting now. */
    public String render() {
        return template.replace("{{date}}", LocalDate.now(clock).toString())
                .replace("{{database}}", database)
                .replace("{{max_rows}}", Integer.toString(maxRows))
                .replace("{{learning}}", learning);
    }
}
