package io.sqlagent.workspace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * A workspace on disk for tests: {@code data/} readable (with {@code data/notes/} writable),
 * {@code data-secret/} beside it, {@code outside/} elsewhere, symlinks out of {@code data/}, a copy
 * of Chinook's SQLite file allowed and another file not allowed, and the manifest naming them
 * with paths relative to itself.
 */
final class WorkspaceFixture {

    final Path root;
    final Path data;
    final Path notes;
    final Path outside;
    final Path sibling;
    final Path chinook;
    final Path otherDb;
    final Path manifest;

    WorkspaceFixture(Path root) throws IOException {
        this.root = root.toRealPath();
        data = Files.createDirectories(this.root.resolve("data"));
        notes = Files.createDirectories(data.resolve("notes"));
        outside = Files.createDirectories(this.root.resolve("outside"));
        sibling = Files.createDirectories(this.root.resolve("data-secret"));
        Files.writeString(data.resolve("readme.txt"), "Grüße from the workspace\n");
        Files.writeString(outside.resolve("secret.txt"), "outside secret");
        Files.writeString(sibling.resolve("secret.txt"), "sibling secret");
        Files.createSymbolicLink(data.resolve("link-out.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(data.resolve("dir-out"), outside);
        Files.createSymbolicLink(notes.resolve("escape"), outside);
        Path dbs = Files.createDirectories(this.root.resolve("db"));
        chinook = dbs.resolve("chinook.sqlite");
        try (InputStream in = WorkspaceFixture.class.getResourceAsStream("/workspace/chinook.sqlite")) {
            Files.copy(in, chinook);
        }
        otherDb = dbs.resolve("other.sqlite");
        Files.copy(chinook, otherDb);
        manifest = this.root.resolve("policy.yaml");
        Files.writeString(manifest, """
                policy:
                  data:
                    sqlite:
                      allow: [db/chinook.sqlite]
                    filesystem:
                      allow_read: [data]
                      allow_write: [data/notes]
                  limits:
                    max_rows: 5
                    max_bytes: 1000
                """);
    }

    PolicyManifest policy() {
        return PolicyManifest.load(manifest);
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
