package io.sqlagent.embedded;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;

import org.junit.jupiter.api.Test;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A build without the embedded PostgreSQL's binaries ({@code -Pkubernetes}) asked to start the
 * embedded server stops with what to set instead of the library's bare "Missing embedded postgres
 * binaries".
 */
class EmbeddedBinariesTest {

    @Test
    void aClassPathWithoutBinariesIsRefusedNamingTheBuildAndTheSettings() throws Exception {
        try (URLClassLoader withoutBinaries = new URLClassLoader(new URL[0], null)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> EmbeddedDatabase.requireBinaries(withoutBinaries));

            assertTrue(refused.getMessage().contains("-Pkubernetes"), refused.getMessage());
            assertTrue(refused.getMessage().contains("QUARKUS_DATASOURCE_REACTIVE_URL"), refused.getMessage());
            assertTrue(refused.getMessage().contains("SQLAGENT_SOURCES_DEFAULT_URL"), refused.getMessage());
        }
    }

    @Test
    void theBinariesOfTheBuildAreFound() {
        // Packaged for every platform by default, and on the test class path under -Pkubernetes too.
        assertDoesNotThrow(() -> EmbeddedDatabase.requireBinaries(EmbeddedPostgres.class.getClassLoader()));
    }
}
