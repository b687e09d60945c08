package io.sqlagent.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.runtime.Startup;
import io.sqlagent.ClasspathText;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.sql.SourceChoice;
import io.sqlagent.sql.SourceUrls;
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
    SystemPrompt(AgentConfig agent, LearningConfig learningConfig, SqlConfig sql, SourceChoice sources) {
        this(template(agent), learningConfig.enabled() ? ClasspathText.require("agent/learning-prompt.txt") : "",
                database(sources), sql.maxRows(), Clock.systemDefaultZone());
    }

    /**
     * The default source by name; with others (or another engine) each one with its engine, and how the SQL tools
     * reach them, so the model knows which databases it may ask before it calls.
     */
    static String database(SourceChoice sources) {
        List<SourceChoice.Offered> offered = sources.offered();
        if (offered.size() == 1 && offered.get(0).engine().filter(SourceUrls.POSTGRESQL::equals).isPresent()) {
            return "source '" + sources.defaultName() + "'";
        }
        return "source '" + sources.defaultName() + "'; the SQL tools' source argument picks one of the sources: "
                + sources.summary() + "; write SQL in the dialect of the source it runs on";
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
