package io.sqlagent.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;

/**
 * Decides whether a path a tool was given lies inside the allowed files and directories, the way
 * the operating system would resolve it: symlinks are followed to their real target before the
 * check, so a link inside an allowed directory that points elsewhere is outside; containment is
 * by whole path components, so {@code /data-secret} is not inside {@code /data}. Relative paths
 * are resolved against the service's working directory.
 */
final class PathGuard {

    private PathGuard() {
    }

    /**
     * The real path of an existing entry inside {@code allowed} (directories, or single files).
     *
     * @throws ToolRefusedException when the path is malformed or lies outside (also through a symlink)
     * @throws ToolException when it is inside but does not exist
     */
    static Path existingInside(String argument, List<Path> allowed, String tool, String setting) {
        Path absolute = absolute(argument, tool);
        if (!lexicallyInside(absolute.normalize(), allowed)) {
            throw outside(argument, tool, setting);
        }
        Path real;
        try {
            real = absolute.toRealPath();
        } catch (NoSuchFileException e) {
            throw new ToolException("No file or directory '" + argument + "' exists");
        } catch (IOException e) {
            throw new ToolException("'" + argument + "' cannot be opened: " + e.getMessage());
        }
        if (!reallyInside(real, allowed)) {
            throw outside(argument, tool, setting);
        }
        return real;
    }

    /**
     * Where {@code write_file} may put a file: the target in the real directory it belongs to,
     * which lies inside {@code allowed}; missing parent directories are created. The target itself
     * is never resolved: a symlink there is replaced, not followed.
     */
    static Path writableTarget(String argument, List<Path> allowed, String tool, String setting) throws IOException {
        Path normalized = absolute(argument, tool).normalize();
        if (normalized.getFileName() == null || !lexicallyInside(normalized, allowed) || isAllowedRoot(normalized, allowed)) {
            throw outside(argument, tool, setting);
        }
        Path parent = normalized.getParent();
        Path existing = parent;
        List<Path> missing = new ArrayList<>();
        while (existing != null && !Files.exists(existing)) {
            missing.add(0, existing.getFileName());
            existing = existing.getParent();
        }
        if (existing == null) {
            throw outside(argument, tool, setting);
        }
        Path real = existing.toRealPath();
        if (!reallyInside(real, allowed)) {
            throw outside(argument, tool, setting);
        }
        if (!Files.isDirectory(real)) {
            throw new ToolException("'" + argument + "' cannot be written: " + existing.getFileName() + " is not a directory");
        }
        Path directory = real;
        for (Path name : missing) {
            directory = directory.resolve(name.toString());
            // Creating one level at a time: a directory is never created through a symlink planted meanwhile.
            Files.createDirectory(directory);
        }
        Path target = directory.resolve(normalized.getFileName().toString());
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new ToolException("'" + argument + "' is a directory; give a file path");
        }
        return target;
    }

    private static Path absolute(String argument, String tool) {
        if (argument.indexOf('\0') >= 0) {
            throw new ToolRefusedException(tool + " refuses a path with a NUL character");
        }
        try {
            return Path.of(argument).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw new ToolRefusedException(tool + " refuses the path '" + argument + "': " + e.getReason());
        }
    }

    private static ToolRefusedException outside(String argument, String tool, String setting) {
        return new ToolRefusedException("'" + argument + "' is outside what " + tool + " may use (" + setting
                + " in the workspace policy)");
    }

    /** Inside an allowed entry as written or as it really is, before anything is resolved: a first, cheap refusal. */
    private static boolean lexicallyInside(Path path, List<Path> allowed) {
        for (Path entry : allowed) {
            if (path.startsWith(entry) || realPath(entry).map(path::startsWith).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    private static boolean reallyInside(Path real, List<Path> allowed) {
        for (Path entry : allowed) {
            Optional<Path> entryReal = realPath(entry);
            if (entryReal.isPresent() && (Files.isDirectory(entryReal.get()) ? real.startsWith(entryReal.get())
                    : real.equals(entryReal.get()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAllowedRoot(Path path, List<Path> allowed) {
        return allowed.stream().anyMatch(entry -> entry.equals(path) || realPath(entry).map(path::equals).orElse(false));
    }

    private static Optional<Path> realPath(Path path) {
        try {
            return Optional.of(path.toRealPath());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
