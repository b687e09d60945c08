package io.sqlagent.declarative;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * Finds and reads tool files: each configured path is a file or a directory whose {@code *.yaml}
 * and {@code *.yml} files are read in name order. Also fingerprints them, so a watcher can tell
 * when anything changed.
 */
final class ToolFiles {

    /** The shipped Chinook tools, on the classpath. */
    static final String SHIPPED = "declarative/tools/chinook.yaml";

    /** The property that names the files. */
    private static final String SETTING = "sqlagent.tools.paths";

    private ToolFiles() {
    }

    /** The files the paths name, in order; a path that does not exist is a problem. */
    static List<YamlTree> read(List<String> paths) {
        List<YamlTree> trees = new ArrayList<>();
        for (String configured : paths) {
            Path path = Path.of(configured.strip());
            if (Files.isDirectory(path)) {
                for (Path file : listed(path)) {
                    trees.add(read(file));
                }
            } else if (Files.isRegularFile(path)) {
                trees.add(read(path));
            } else {
                trees.add(missing(configured.strip()));
            }
        }
        return trees;
    }

    /** The shipped file. */
    static YamlTree shipped() {
        String name = "classpath:" + SHIPPED;
        try (InputStream in = ToolFiles.class.getClassLoader().getResourceAsStream(SHIPPED)) {
            if (in == null) {
                return missing(name);
            }
            return YamlTree.parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return unreadable(name, e);
        }
    }

    /**
     * Names, sizes and modification times of every file the paths name: equal fingerprints mean
     * nothing was added, removed or changed.
     */
    static String fingerprint(List<String> paths) {
        StringBuilder out = new StringBuilder();
        for (String configured : paths) {
            Path path = Path.of(configured.strip());
            List<Path> files = Files.isDirectory(path) ? listed(path) : List.of(path);
            for (Path file : files) {
                out.append(file).append('|');
                try {
                    out.append(Files.size(file)).append('|').append(Files.getLastModifiedTime(file).toMillis());
                } catch (IOException e) {
                    out.append("missing");
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static List<Path> listed(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.filter(Files::isRegularFile)
                    .filter(file -> {
                        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
                        return name.endsWith(".yaml") || name.endsWith(".yml");
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static YamlTree read(Path file) {
        return YamlTree.read(file, SETTING);
    }

    private static YamlTree missing(String name) {
        return YamlTree.missing(name, SETTING);
    }

    private static YamlTree unreadable(String name, IOException e) {
        return YamlTree.failed(new YamlProblem(name, 0, YamlTree.WHOLE_FILE, "could not be read: " + e));
    }
}
