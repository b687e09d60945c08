package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * What {@code ./mvnw package} leaves in {@code target/quarkus-app}: the class-data sharing archive
 * the README tells users to start with, and no embedded database — the run that writes the archive
 * stops before any datasource is used, so it must not have started (and left data of) one there.
 */
class PackagedAppIT {

    @Test
    void thePackageHasAClassDataArchiveAndNoEmbeddedDatabaseData() throws Exception {
        Path app = ServiceProcess.appDir();

        Path archive = app.resolve("app-cds.jsa");
        assertTrue(Files.isRegularFile(archive) && Files.size(archive) > 1_000_000, "no class-data archive at " + archive);
        assertFalse(Files.exists(app.resolve(".sqlagent")),
                "writing the class-data archive started the embedded PostgreSQL in " + app.resolve(".sqlagent"));
    }
}
