package io.sqlagent.builtin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.quarkus.arc.Arc;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;

/**
 * The tables, views and functions the table policy tests read ({@code src/test/resources/policy/fixture.sql}), made
 * before and dropped after each test of a class that registers this extension
 * ({@code @RegisterExtension static final PolicyFixture POLICY = new PolicyFixture();}): denied tables, their children
 * and partitions, views over them, a schema found through the search path, and functions that read them. The source
 * is the application's {@code default}, looked up in the running application as each test starts.
 */
public final class PolicyFixture implements BeforeEachCallback, AfterEachCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        create(source());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        drop(source());
    }

    /** The source the fixture lives in: the running application's {@code default}. */
    public static Source source() {
        return Arc.container().instance(SourceRegistry.class).get().find("default").orElseThrow();
    }

    /** Drops what is left of an earlier run, then creates the fixture. */
    public static void create(Source source) {
        drop(source);
        run(source, "policy/fixture.sql");
    }

    /** Drops the fixture and whatever depends on it. */
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
