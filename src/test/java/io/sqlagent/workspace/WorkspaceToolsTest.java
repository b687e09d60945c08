package io.sqlagent.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.tool.Tool;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.ToolResult;

/**
 * The three file and SQLite tools against a real workspace on disk: what they do, and every attack refused with nothing touched
 * outside.
 */
class WorkspaceToolsTest {

    @TempDir
    Path temp;

    WorkspaceFixture workspace;
    PolicyManifest policy;

    @BeforeEach
    void setUp() throws Exception {
        workspace = new WorkspaceFixture(temp);
        policy = workspace.policy();
    }

    private static JsonNode call(Tool tool, Object... nameValues) {
        ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode();
        for (int i = 0; i < nameValues.length; i += 2) {
            arguments.set((String) nameValues[i], SnakeCaseJson.MAPPER.valueToTree(nameValues[i + 1]));
        }
        ToolResult result = tool.invoke(new ToolCall("c1", tool.descriptor().name(), arguments),
                ToolCallContext.of("test")).await().atMost(Duration.ofSeconds(30));
        return ((ToolResult.Success) result).value();
    }

    private static ToolException failure(Tool tool, Object... nameValues) {
        return assertThrows(ToolException.class, () -> call(tool, nameValues));
    }

    private static void refused(Tool tool, String expected, Object... nameValues) {
        ToolException e = failure(tool, nameValues);
        assertSame(ToolRefusedException.class, e.getClass(), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    // read_file ---------------------------------------------------------------------------------

    @Test
    void readsTextInsideTheAllowedDirectoryByRelativeOrAbsolutePath() {
        ReadFileTool read = new ReadFileTool(policy);

        assertEquals("Grüße from the workspace\n",
                call(read, "path", workspace.data.resolve("readme.txt").toString()).asText());
        assertEquals("Grüße from the workspace\n",
                call(read, "path", workspace.data.resolve("notes/../readme.txt").toString()).asText());
        String relative = Path.of("").toAbsolutePath().relativize(workspace.data.resolve("readme.txt")).toString();
        assertEquals("Grüße from the workspace\n", call(read, "path", relative).asText());
    }

    @Test
    void pathAttacksOnReadAreRefusedAndNothingOutsideIsRead() {
        ReadFileTool read = new ReadFileTool(policy);
        String outsideRule = "is outside what read_file may use (policy.data.filesystem.allow_read in the workspace policy)";

        refused(read, outsideRule, "path", workspace.data.resolve("../outside/secret.txt").toString());
        refused(read, outsideRule, "path", workspace.outside.resolve("secret.txt").toString());
        refused(read, outsideRule, "path", "/etc/passwd");
        refused(read, outsideRule, "path", workspace.sibling.resolve("secret.txt").toString());
        refused(read, outsideRule, "path", workspace.data.resolve("link-out.txt").toString());
        refused(read, outsideRule, "path", workspace.data.resolve("dir-out/secret.txt").toString());
        refused(read, "NUL character", "path", workspace.data.resolve("readme.txt") + "\0.png");
        // Percent-encoded separators are not decoded: this names a file inside data/ that does not exist.
        ToolException encoded = failure(read, "path", workspace.data + "/..%2f..%2foutside%2fsecret.txt");
        assertSame(ToolException.class, encoded.getClass());
        assertTrue(encoded.getMessage().startsWith("No file or directory"), encoded.getMessage());
    }

    @Test
    void largeAndBinaryFilesAreRefusedAndEncodingsDecoded() throws Exception {
        ReadFileTool read = new ReadFileTool(policy);
        Files.writeString(workspace.data.resolve("big.txt"), "x".repeat(1001));
        Files.write(workspace.data.resolve("image.png"), new byte[] { (byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 13 });
        Files.write(workspace.data.resolve("utf16.txt"), "\uFEFFhällo".getBytes(StandardCharsets.UTF_16LE));
        Files.write(workspace.data.resolve("latin1.txt"), "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));

        refused(read, "has 1001 bytes; read_file reads at most 1000 (policy.limits.max_bytes)", "path",
                workspace.data.resolve("big.txt").toString());
        ToolException binary = failure(read, "path", workspace.data.resolve("image.png").toString());
        assertTrue(binary.getMessage().endsWith("is a binary file; read_file reads text only"), binary.getMessage());
        assertEquals("hällo", call(read, "path", workspace.data.resolve("utf16.txt").toString()).asText());
        assertEquals("caf\uFFFD", call(read, "path", workspace.data.resolve("latin1.txt").toString()).asText());
        ToolException directory = failure(read, "path", workspace.notes.toString());
        assertTrue(directory.getMessage().endsWith("is not a regular file"), directory.getMessage());
    }

    // write_file --------------------------------------------------------------------------------

    @Test
    void writesAtomicallyInsideTheWritableDirectoryCreatingParents() throws Exception {
        WriteFileTool write = new WriteFileTool(policy);

        JsonNode written = call(write, "path", workspace.notes.resolve("2026/11/summary.md").toString(), "content",
                "# Tracks\n3503\n");
        call(write, "path", workspace.notes.resolve("2026/11/summary.md").toString(), "content", "# Tracks\n3504\n");

        Path file = workspace.notes.resolve("2026/11/summary.md");
        assertEquals(file.toString(), written.path("path").asText());
        assertEquals(14, written.path("bytes").asInt());
        assertEquals("# Tracks\n3504\n", Files.readString(file));
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertEquals(List.of(file), files.toList(), "no temporary file is left behind");
        }
    }

    @Test
    void pathAttacksOnWriteAreRefusedAndNothingIsWrittenOutside() throws Exception {
        WriteFileTool write = new WriteFileTool(policy);
        String outsideRule = "is outside what write_file may use (policy.data.filesystem.allow_write in the workspace policy)";
        String before = Files.readString(workspace.outside.resolve("secret.txt"));

        refused(write, outsideRule, "path", workspace.notes.resolve("../../outside/secret.txt").toString(), "content", "pwned");
        refused(write, outsideRule, "path", workspace.data.resolve("readme.txt").toString(), "content", "pwned");
        refused(write, outsideRule, "path", workspace.notes.resolve("escape/secret.txt").toString(), "content", "pwned");
        refused(write, outsideRule, "path", workspace.notes.resolve("escape/new/deeper.txt").toString(), "content", "pwned");
        refused(write, outsideRule, "path", workspace.root.resolve("data/notes-evil/x.txt").toString(), "content", "pwned");
        refused(write, outsideRule, "path", workspace.notes.toString(), "content", "pwned");
        refused(write, "NUL character", "path", workspace.notes + "/a\0b", "content", "pwned");
        refused(write, "The content has 1001 bytes; write_file writes at most 1000 (policy.limits.max_bytes)",
                "path", workspace.notes.resolve("big.txt").toString(), "content", "x".repeat(1001));

        assertEquals(before, Files.readString(workspace.outside.resolve("secret.txt")));
        assertFalse(Files.exists(workspace.outside.resolve("new")));
        assertFalse(Files.exists(workspace.root.resolve("data/notes-evil")));
        assertFalse(Files.exists(workspace.notes.resolve("big.txt")));
    }

    @Test
    void aSymlinkAtTheTargetIsReplacedNotFollowed() throws Exception {
        WriteFileTool write = new WriteFileTool(policy);
        Path link = workspace.notes.resolve("link.txt");
        Files.createSymbolicLink(link, workspace.outside.resolve("secret.txt"));

        call(write, "path", link.toString(), "content", "mine");

        assertEquals("outside secret", Files.readString(workspace.outside.resolve("secret.txt")));
        assertFalse(Files.isSymbolicLink(link));
        assertTrue(Files.isRegularFile(link, LinkOption.NOFOLLOW_LINKS));
        assertEquals("mine", Files.readString(link));
    }

    // sql_query ---------------------------------------------------------------------------------

    @Test
    void queriesChinooksSqliteFileReadOnlyWithTheRowLimit() {
        SqlQueryTool sql = new SqlQueryTool(policy);

        JsonNode count = call(sql, "db_path", workspace.chinook.toString(), "query", "SELECT count(*) AS total FROM Track");
        JsonNode many = call(sql, "db_path", workspace.chinook.toString(), "query",
                "WITH a AS (SELECT Name FROM Artist ORDER BY ArtistId) SELECT Name FROM a");

        assertEquals("{\"columns\":[\"total\"],\"column_types\":[\"INTEGER\"],\"rows\":[[3503]],\"truncated\":false}",
                count.toString());
        assertEquals(5, many.path("rows").size());
        assertEquals("AC/DC", many.path("rows").get(0).get(0).asText());
        assertTrue(many.path("truncated").asBoolean());
    }

    @Test
    void columnsThatShareANameKeepEveryValueWithTheirTypes() {
        SqlQueryTool sql = new SqlQueryTool(policy);

        JsonNode both = call(sql, "db_path", workspace.chinook.toString(), "query",
                "SELECT ar.Name, al.Title, t.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId "
                        + "JOIN Track t ON t.AlbumId = al.AlbumId ORDER BY t.TrackId LIMIT 1");

        assertEquals("[\"Name\",\"Title\",\"Name\"]", both.path("columns").toString());
        assertEquals("[\"NVARCHAR\",\"NVARCHAR\",\"NVARCHAR\"]", both.path("column_types").toString());
        assertEquals("[\"AC/DC\",\"For Those About To Rock We Salute You\",\"For Those About To Rock (We Salute You)\"]",
                both.path("rows").get(0).toString());
    }

    @Test
    void writesPragmasAttachAndExtensionsAreRefusedAndTheFileIsUnchanged() throws Exception {
        SqlQueryTool sql = new SqlQueryTool(policy);
        String checksum = WorkspaceFixture.sha256(workspace.chinook);
        String db = workspace.chinook.toString();

        refused(sql, "Only SELECT, WITH … SELECT and VALUES statements are allowed; found DELETE", "db_path", db, "query",
                "DELETE FROM Track");
        refused(sql, "Only one statement is allowed; found 2", "db_path", db, "query", "SELECT 1; DROP TABLE Track");
        refused(sql, "DELETE is not allowed", "db_path", db, "query",
                "WITH gone AS (SELECT 1) DELETE FROM Track WHERE TrackId IN (SELECT * FROM gone)");
        refused(sql, "found PRAGMA", "db_path", db, "query", "PRAGMA journal_mode = WAL");
        refused(sql, "found ATTACH", "db_path", db, "query", "ATTACH DATABASE '" + workspace.otherDb + "' AS other");
        refused(sql, "Function load_extension is not allowed", "db_path", db, "query", "SELECT load_extension('/tmp/evil.so')");
        refused(sql, "found CREATE", "db_path", db, "query", "CREATE TABLE t (a)");
        refused(sql, "found VACUUM", "db_path", db, "query", "VACUUM INTO '/tmp/copy.db'");
        refused(sql, "Parameters (?) are not supported", "db_path", db, "query", "SELECT ?");
        refused(sql, "is outside what sql_query may use (policy.data.sqlite.allow in the workspace policy)",
                "db_path", workspace.otherDb.toString(), "query", "SELECT 1");
        // Words in strings and quoted names are data, not statements.
        JsonNode literal = call(sql, "db_path", db, "query", "SELECT 'DROP TABLE Track; DELETE' AS \"delete\"");
        assertEquals("DROP TABLE Track; DELETE", literal.path("rows").get(0).get(0).asText());
        // The connection is read-only too: a write the guard let through still fails.
        ToolException readOnly = failure(sql, "db_path", db, "query", "SELECT * FROM pragma_journal_mode('wal')");
        assertTrue(readOnly.getMessage().startsWith("SQLite: "), readOnly.getMessage());

        assertEquals(checksum, WorkspaceFixture.sha256(workspace.chinook));
        assertEquals(List.of(workspace.chinook, workspace.otherDb), Files.list(workspace.chinook.getParent()).sorted().toList(),
                "no journal, WAL or copy file appeared");
    }

    private static final String ENDLESS = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";

    @Test
    void anEndlessQueryIsStoppedAtThePolicyTimeoutAndNothingKeepsRunning() throws Exception {
        Files.writeString(workspace.manifest, Files.readString(workspace.manifest) + "    timeout_seconds: 1\n");
        SqlQueryTool sql = new SqlQueryTool(PolicyManifest.load(workspace.manifest));
        long started = System.nanoTime();

        ToolException timedOut = failure(sql, "db_path", workspace.chinook.toString(), "query", ENDLESS);

        assertEquals("The query ran longer than 1 s (timeout_seconds in the workspace policy) and was stopped",
                timedOut.getMessage());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 5000, "stopped at the timeout, not later");
        assertNoSqliteStatementRuns();
        // The file is free: the next query runs at once.
        assertEquals(3503, call(sql, "db_path", workspace.chinook.toString(), "query", "SELECT count(*) FROM Track")
                .path("rows").get(0).get(0).asInt());
    }

    @Test
    void cancellingTheCallInterruptsItsStatement() throws Exception {
        SqlQueryTool sql = new SqlQueryTool(policy);
        ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode().put("db_path", workspace.chinook.toString()).put("query",
                ENDLESS);
        java.util.concurrent.atomic.AtomicReference<Object> outcome = new java.util.concurrent.atomic.AtomicReference<>();

        var subscription = sql
                .invoke(new ToolCall("c1", "sql_query", arguments),
                        ToolCallContext.of("test"))
                .subscribe().with(outcome::set, outcome::set);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (sqliteStatementThreads().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(sqliteStatementThreads().isEmpty(), "the query never started");
        subscription.cancel();

        assertNoSqliteStatementRuns();
        assertEquals(null, outcome.get(), "a cancelled call delivers nothing");
    }

    /** Within two seconds no thread is inside SQLite's step any more (the default policy timeout is 30 s). */
    private static void assertNoSqliteStatementRuns() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (!sqliteStatementThreads().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(List.of(), sqliteStatementThreads(), "threads still running a SQLite statement");
    }

    private static List<String> sqliteStatementThreads() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(thread -> Stream.of(thread.getValue()).anyMatch(frame -> frame.getClassName().startsWith("org.sqlite.")
                        && frame.getMethodName().equals("step")))
                .map(thread -> thread.getKey().getName())
                .toList();
    }

    @Test
    void aHugeValueIsRefusedBySqliteBeforeItIsMadeAndTheResultStaysWithinItsBytes() {
        SqlQueryTool sql = new SqlQueryTool(policy);
        String db = workspace.chinook.toString();

        // 300 MB in one value ended in OutOfMemoryError; SQLite now refuses to make it.
        ToolException blob = failure(sql, "db_path", db, "query", "SELECT zeroblob(300000000)");
        ToolException text = failure(sql, "db_path", db, "query",
                "SELECT replace(printf('%.*c', 1000000, 'x'), 'x', 'xx') AS huge");
        JsonNode many = call(sql, "db_path", db, "query", "SELECT printf('%.*c', 400, 'x') AS wide FROM Track");

        assertTrue(blob.getMessage().startsWith("A value is larger than 1048576 bytes, the most sql_query reads in one value "
                + "(policy.limits.max_bytes"), blob.getMessage());
        assertTrue(text.getMessage().startsWith("A value is larger than 1048576 bytes"), text.getMessage());
        // Values under the cap still count against max_bytes (1000 here) while rows are read.
        assertTrue(many.path("truncated").asBoolean());
        assertTrue(many.path("rows").size() <= 2, many.path("rows").size() + " rows");
    }

    @Test
    void aFileNameCannotAddUriParameters() {
        assertEquals("file:/tmp/a%3Fmode%3Drwc%23x%20y.db?mode=ro", SqlQueryTool.uri(Path.of("/tmp/a?mode=rwc#x y.db")));
    }
}
