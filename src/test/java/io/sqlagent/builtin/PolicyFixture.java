package io.sqlagent.builtin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.sqlagent.sql.Source;

/**
 * The tables, views and functions the table policy tests read ({@code src/test/resources/policy/fixture.sql}), made
 * and dropped around each test: denied tables, their children and partitions, views over them, a schema found
 * through the search path, and functions that read them.
 */
public final class PolicyFixture {

    private PolicyFixture() {
    }

    /** Drops what is left of an earlier run, then creates the fixture. */
    public static void create(Source source) {
        drop(source);
        run(source, "policy/fixture.sql");
    }

    public static void drop(Source source) {
        run(source, "policy/cleanup.sql");
    }

    /** The lines of a resource that are not blank or comments. */
    public static List<String> lines(String resource) {
        try (InputStream in = PolicyFixture.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("No resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#") && !line.startsWith("--"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void run(Source source, String resource) {
        for (String statement : lines(resource)) {
            source.executeWriting(statement).await().atMost(Duration.ofSeconds(10));
        }
    }
}
