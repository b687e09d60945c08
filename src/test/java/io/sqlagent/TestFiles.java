package io.sqlagent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File helpers shared by tests and benchmarks. */
public final class TestFiles {

    private TestFiles() {
    }

    /** Deletes {@code root} and everything below it (symlinks themselves, never their targets); nothing if it is absent. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
