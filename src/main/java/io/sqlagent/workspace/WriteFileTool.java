package io.sqlagent.workspace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;

import io.smallrye.mutiny.Uni;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;

/**
 * {@code write_file}: writes text (UTF-8) to a file inside an {@code allow_write} directory,
 * creating missing parent directories there. The content goes to a temporary file beside the
 * target and is moved over it in one step, so a reader sees the old file or the new one, never
 * half of it; a symlink at the target is replaced, never followed.
 */
@ToolDefinition(name = "write_file", title = "Write file", namespace = "workspace", tags = { "file", "write",
        "local" }, auditArguments = false, blocking = true, description = "Write content to a file on the local filesystem.", returns = "{\"path\":\"the file's real path\",\"bytes\":n}", usage = "Only inside the policy's allow_write directories; an existing file is replaced.")
public class WriteFileTool extends TypedTool<WriteFileTool.Arguments> {

    private final PolicyManifest policy;

    WriteFileTool(PolicyManifest policy) {
        this.policy = policy;
    }

    /** Arguments of {@code write_file}. */
    public record Arguments(
            @Param(description = "Absolute or relative file path to write.", minLength = 1, maxLength = 4096) String path,
            @Param(description = "Content to write to the file.") String content) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        return Uni.createFrom().item(() -> write(arguments));
    }

    private Map<String, Object> write(Arguments arguments) {
        byte[] bytes = arguments.content().getBytes(StandardCharsets.UTF_8);
        long limit = policy.limits().maxBytes();
        if (bytes.length > limit) {
            throw new ToolRefusedException("The content has " + bytes.length + " bytes; write_file writes at most " + limit
                    + " (policy.limits.max_bytes)");
        }
        try {
            Path target = PathGuard.writableTarget(arguments.path(), policy.writeDirs(), "write_file",
                    "policy.data.filesystem.allow_write");
            Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
            try {
                Files.write(temporary, bytes);
                permissions(temporary, target);
                move(temporary, target);
            } finally {
                Files.deleteIfExists(temporary);
            }
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("path", target.toString());
            answer.put("bytes", bytes.length);
            return answer;
        } catch (IOException e) {
            throw new ToolException("'" + arguments.path() + "' cannot be written: " + e.getMessage());
        }
    }

    /**
     * A new file is readable by all, as an editor would leave it (temporary files start private); a replaced one keeps its own.
     */
    private static void permissions(Path temporary, Path target) throws IOException {
        try {
            Files.setPosixFilePermissions(temporary, Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
                    ? Files.getPosixFilePermissions(target, LinkOption.NOFOLLOW_LINKS)
                    : PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: its defaults apply.
        }
    }

    private static void move(Path temporary, Path target) throws IOException {
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
