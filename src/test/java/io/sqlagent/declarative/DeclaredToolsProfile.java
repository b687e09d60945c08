package io.sqlagent.declarative;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Declared tools from the binding fixtures and from a temporary directory the reload tests
 * rewrite; a low fetch ceiling and a fast watcher.
 */
public class DeclaredToolsProfile implements QuarkusTestProfile {

    static final Path RELOAD_DIR = createReloadDir();

    static final String FIRST_VERSION = """
            tools:
              reload_probe:
                source: default
                description: Says which version of the file is in effect.
                statement: SELECT 1 AS version
            """;

    // Quarkus loads this class again in the application's class loader: a system property makes
    // both copies use the same directory.
    private static Path createReloadDir() {
        String shared = System.getProperty("sqlagent.test.reload-dir");
        if (shared != null) {
            return Path.of(shared);
        }
        try {
            Path dir = Files.createTempDirectory("sqlagent-reload");
            System.setProperty("sqlagent.test.reload-dir", dir.toString());
            Files.writeString(dir.resolve("reload.yaml"), FIRST_VERSION);
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("sqlagent.tools.paths", "src/test/resources/declarative/binding," + RELOAD_DIR,
                "sqlagent.tools.max-fetch-rows", "1000",
                "sqlagent.tools.watch", "true",
                "sqlagent.tools.watch-interval", "200ms");
    }
}
