package io.sqlagent.workspace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.smallrye.mutiny.Uni;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;

/**
 * {@code read_file}: the text of a file inside an {@code allow_read} directory (real path,
 * symlinks resolved). Larger than {@code max_bytes}: refused without being read. Binary: refused.
 * Text is decoded by its byte-order mark, else as UTF-8 with bad bytes replaced.
 */
@ToolDefinition(name = "read_file", title = "Read file", namespace = "workspace", tags = { "file", "read",
        "local" }, readOnly = true, auditArguments = true, blocking = true, description = "Read the contents of a file on the local filesystem.", returns = "the file's text", usage = "Only files inside the policy's allow_read directories can be read.")
public class ReadFileTool extends TypedTool<ReadFileTool.Arguments> {

    private static final int SNIFF_BYTES = 8192;

    private final PolicyManifest policy;

    ReadFileTool(PolicyManifest policy) {
        this.policy = policy;
    }

    /** Arguments of {@code read_file}. */
    public record Arguments(
            @Param(description = "Absolute or relative file path to read.", minLength = 1, maxLength = 4096) String path) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        return Uni.createFrom().item(() -> read(arguments.path()));
    }

    private String read(String argument) {
        Path file = PathGuard.existingInside(argument, policy.readDirs(), "read_file", "policy.data.filesystem.allow_read");
        if (!Files.isRegularFile(file)) {
            throw new ToolException("'" + argument + "' is not a regular file");
        }
        long limit = policy.limits().maxBytes();
        byte[] bytes;
        try {
            long size = Files.size(file);
            if (size > limit) {
                throw tooLarge(argument, String.valueOf(size), limit);
            }
            try (InputStream in = Files.newInputStream(file)) {
                // A file that grew since its size was taken is still cut off at the limit.
                bytes = in.readNBytes((int) limit + 1);
            }
        } catch (IOException e) {
            throw new ToolException("'" + argument + "' cannot be read: " + e.getMessage());
        }
        if (bytes.length > limit) {
            throw tooLarge(argument, "more than " + limit, limit);
        }
        return decode(argument, bytes);
    }

    private static ToolRefusedException tooLarge(String argument, String size, long limit) {
        return new ToolRefusedException("'" + argument + "' has " + size + " bytes; read_file reads at most " + limit
                + " (policy.limits.max_bytes)");
    }

    static String decode(String argument, byte[] bytes) {
        Charset charset = StandardCharsets.UTF_8;
        int skip = 0;
        if (startsWith(bytes, 0xEF, 0xBB, 0xBF)) {
            skip = 3;
        } else if (startsWith(bytes, 0xFF, 0xFE)) {
            charset = StandardCharsets.UTF_16LE;
            skip = 2;
        } else if (startsWith(bytes, 0xFE, 0xFF)) {
            charset = StandardCharsets.UTF_16BE;
            skip = 2;
        } else if (looksBinary(bytes)) {
            throw new ToolException("'" + argument + "' is a binary file; read_file reads text only");
        }
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes, skip, bytes.length - skip)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ToolException("'" + argument + "' cannot be decoded: " + e.getMessage());
        }
    }

    /** A NUL byte, or mostly control characters, in the first few kilobytes: what text never has. */
    private static boolean looksBinary(byte[] bytes) {
        int sniff = Math.min(bytes.length, SNIFF_BYTES);
        int control = 0;
        for (int i = 0; i < sniff; i++) {
            int b = bytes[i] & 0xff;
            if (b == 0) {
                return true;
            }
            if (b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f' && b != 0x1b) {
                control++;
            }
        }
        return sniff > 0 && control * 10 > sniff;
    }

    private static boolean startsWith(byte[] bytes, int... prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xff) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
