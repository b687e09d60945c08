package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.security.auth.module.UnixSystem;

/**
 * The embedded defaults work for a normal user as well as for root. PostgreSQL refuses to run as
 * root, so the two take different paths through the embedded server's start-up; the other tests
 * cover whichever user runs them, and this one covers an unprivileged user: when the tests run as
 * root it starts the service as {@code nobody}, otherwise as the (already unprivileged) current user.
 */
class UnprivilegedUserIT {

    @TempDir
    Path tempDir;

    @Test
    void theServiceStartsItsEmbeddedDatabaseAsAnUnprivilegedUser() throws Exception {
        boolean root = new UnixSystem().getUid() == 0;
        Path workDir = Files.createDirectory(tempDir.resolve("work"));
        Path appDir = ServiceProcess.appDir();
        List<String> runAs = List.of();
        if (root) {
            // nobody cannot read a root-owned build tree, so give it its own copy and a work dir it owns.
            appDir = copy(appDir, tempDir.resolve("app"));
            openUp(tempDir);
            runAs = List.of("runuser", "-u", "nobody", "--");
        }

        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of(), runAs, appDir)) {
            service.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(60));

            long uid = (Integer) Files.getAttribute(workDir.resolve(".sqlagent/pgdata/postmaster.pid"), "unix:uid");
            ProcessHandle postmaster = service.postmaster().orElseThrow();
            assertEquals(root ? 65534L : new UnixSystem().getUid(), uid, "owner of the server's files");
            assertTrue(service.get("/q/health/ready").orElseThrow().body().contains("\"default\": \"UP\""));

            service.stop();
            assertTrue(ServiceProcess.awaitDeath(postmaster, Duration.ofSeconds(10)), "postgres outlived the service");
        }
    }

    private static Path copy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file)), StandardCopyOption.REPLACE_EXISTING);
                return FileVisitResult.CONTINUE;
            }
        });
        return to;
    }

    private static void openUp(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                        Files.isDirectory(path) ? "rwxrwxrwx" : "rw-rw-rw-"));
            }
        }
    }
}
