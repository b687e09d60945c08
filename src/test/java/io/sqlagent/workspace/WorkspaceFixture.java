package io.sqlagent.workspace;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

import io.sqlagent.TestFiles;

/**
 * A workspace on disk for tests: {@code data/} readable (with {@code data/notes/} writable),
 * {@code data-secret/} beside it, {@code outside/} elsewhere, symlinks out of {@code data/}, a copy
 * of Chinook's SQLite file allowed and another file not allowed, and the manifest naming them
 * with paths relative to itself.
 */
public final class WorkspaceFixture {

    private static final Path SHARED_ROOT = Path.of("target/workspace-shared").toAbsolutePath();
    private static final String SHARED_MADE = "sqlagent.test.workspace-shared";

    /** Every vector collection readable and writable, for the shared profile's embedding test. */
    private static final String VECTORS = """
                vector: { allow: ["*"], allow_write: ["*"] }
            """;

    /** The workspace's directory (real path). */
    public final Path root;
    final Path data;
    final Path notes;
    final Path outside;
    final Path sibling;
    final Path chinook;
    final Path otherDb;
    /** The policy manifest naming it. */
    public final Path manifest;

    WorkspaceFixture(Path root) throws IOException {
        this(root.toRealPath(), true, "");
    }

    /** The paths of a workspace under {@code root} (a real path); with {@code make}, the files too. */
    private WorkspaceFixture(Path root, boolean make, String moreData) throws IOException {
        this.root = root;
        data = root.resolve("data");
        notes = data.resolve("notes");
        outside = root.resolve("outside");
        sibling = root.resolve("data-secret");
        chinook = root.resolve("db/chinook.sqlite");
        otherDb = root.resolve("db/other.sqlite");
        manifest = root.resolve("policy.yaml");
        if (!make) {
            return;
        }
        Files.createDirectories(notes);
        Files.createDirectories(outside);
        Files.createDirectories(sibling);
        Files.writeString(data.resolve("readme.txt"), "Grüße from the workspace\n");
        Files.writeString(outside.resolve("secret.txt"), "outside secret");
        Files.writeString(sibling.resolve("secret.txt"), "sibling secret");
        Files.createSymbolicLink(data.resolve("link-out.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(data.resolve("dir-out"), outside);
        Files.createSymbolicLink(notes.resolve("escape"), outside);
        Files.createDirectories(chinook.getParent());
        try (InputStream in = WorkspaceFixture.class.getResourceAsStream("/workspace/chinook.sqlite")) {
            Files.copy(in, chinook);
        }
        Files.copy(chinook, otherDb);
        Files.writeString(manifest, """
                policy:
                  data:
                    sqlite:
                      allow: [db/chinook.sqlite]
                    filesystem:
                      allow_read: [data]
                      allow_write: [data/notes]
                %s  limits:
                    max_rows: 5
                    max_bytes: 1000
                """.formatted(moreData));
    }

    /**
     * The workspace of {@code TestProfiles.Features}, its manifest also allowing every vector collection: made afresh
     * once per JVM, then only found again. Quarkus loads the test classes and profiles again in the application's
     * class loader, so a system property, not a static field, remembers that it was made.
     */
    public static synchronized WorkspaceFixture shared() {
        try {
            if (System.getProperty(SHARED_MADE) == null) {
                TestFiles.deleteTree(SHARED_ROOT);
                WorkspaceFixture made = new WorkspaceFixture(Files.createDirectories(SHARED_ROOT).toRealPath(), true, VECTORS);
                System.setProperty(SHARED_MADE, made.root.toString());
                return made;
            }
            return new WorkspaceFixture(Path.of(System.getProperty(SHARED_MADE)), false, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    PolicyManifest policy() {
        return PolicyManifest.load(manifest);
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
