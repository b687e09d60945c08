package io.sqlagent.declarative;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The temporary directory of declared tool files that the reload tests rewrite; {@code TestProfiles.Features} adds it
 * to {@code sqlagent.tools.paths} beside the binding fixtures.
 */
public final class DeclaredToolsFiles {

    /** The directory, made once per JVM. */
    public static final Path RELOAD_DIR = createReloadDir();

    static final String FIRST_VERSION = """
            tools:
              reload_probe:
                source: default
                description: Says which version of the file is in effect.
                statement: SELECT 1 AS version
            """;

    private DeclaredToolsFiles() {
    }

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
}
