package io.sqlagent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.ConfigMappings;
import io.smallrye.config.ConfigSourceFactory;

/**
 * The configuration table (docs/configuration.md) and the service's own settings agree: every {@code sqlagent.*}
 * property a {@link ConfigMapping} declares has a row, and every row names a property that exists.
 * The names come from SmallRye Config's own reading of the mappings (and the constants of the
 * config source factories, which read theirs before mappings exist), so a renamed or added
 * setting fails here until the table follows.
 */
class ConfigurationDocsTest {

    /** A row's first cell: a full name, then siblings written {@code .last-segment}. */
    private static final Pattern NAME = Pattern.compile("`(sqlagent\\.[a-z0-9.<>*\"-]+|\\.[a-z0-9-]+)`");

    @Test
    void theConfigurationTableNamesEverySettingAndOnlySettingsThatExist() throws IOException {
        Set<String> declared = declaredProperties();
        Set<String> documented = documentedProperties();

        Set<String> undocumented = new TreeSet<>(declared);
        undocumented.removeAll(documented);
        Set<String> unknown = new TreeSet<>(documented);
        unknown.removeAll(declared);
        assertEquals(Set.of(), undocumented, "settings without a row in docs/configuration.md's table");
        assertEquals(Set.of(), unknown, "rows in docs/configuration.md's table naming no setting");
    }

    /**
     * Every {@code sqlagent.*} setting (or {@code SQLAGENT_*} environment variable) the docs, the
     * Kubernetes files and the dashboard name exists: a reader who sets one that does not is ignored
     * without a word. A name ending {@code .*}, or a group's prefix, counts when some setting is under it.
     */
    @Test
    void everySettingTheDocsAndManifestsNameExists() throws IOException {
        Set<String> declared = declaredProperties();
        List<Pattern> variables = declared.stream().map(ConfigurationDocsTest::variablePattern).toList();
        Set<String> unknown = new TreeSet<>();
        for (Path file : documentsAndManifests()) {
            String text = Files.readString(file);
            Matcher property = DOCUMENTED_PROPERTY.matcher(text);
            while (property.find()) {
                String name = property.group().replaceAll("\"?<[^>]+>\"?|\"[^\"]+\"", "*");
                if (declared.stream().noneMatch(d -> isOrIsUnder(d, name)) && !NOT_SETTINGS.contains(property.group())) {
                    unknown.add(file + ": " + property.group());
                }
            }
            Matcher variable = DOCUMENTED_VARIABLE.matcher(text);
            while (variable.find()) {
                String name = variable.group().replaceAll("<[^>]+>", "X");
                if (variables.stream().noneMatch(p -> p.matcher(name).matches()) && !NOT_SETTINGS.contains(variable.group())) {
                    unknown.add(file + ": " + variable.group());
                }
            }
        }
        assertEquals(Set.of(), unknown, "names of settings that do not exist");
    }

    /** A setting's name in text: not a Java package ({@code io.sqlagent.x}) nor a path or a metric. */
    private static final Pattern DOCUMENTED_PROPERTY = Pattern
            .compile("(?<![\\w.$/-])sqlagent\\.[a-z0-9.<>*\"_-]*[a-z0-9>*\"]");
    private static final Pattern DOCUMENTED_VARIABLE = Pattern.compile("(?<![\\w.$/-])SQLAGENT_[A-Z0-9_<>]*[A-Z0-9>]");
    /** Names of that form that are no settings: span attributes, shell variables of examples and of .ci/run. */
    private static final Set<String> NOT_SETTINGS = Set.of("sqlagent.tool.caller", "sqlagent.tool.outcome", "SQLAGENT_KEY",
            "SQLAGENT_SPEED_CHECK");

    private static List<Path> documentsAndManifests() throws IOException {
        List<Path> files = new java.util.ArrayList<>(List.of(Path.of("README.md"), Path.of("CHANGELOG.md")));
        for (String folder : List.of("docs", "k8s", "src/main/kubernetes")) {
            try (Stream<Path> walk = Files.walk(Path.of(folder))) {
                walk.filter(f -> f.toString().matches(".*\\.(md|ya?ml|json)$")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    /**
     * Whether {@code written} names the declared setting or a group above it, segment by segment; a
     * {@code *} on either side (a map key, {@code <name>}, a trailing {@code .*}) stands for any segment.
     */
    private static boolean isOrIsUnder(String declared, String written) {
        String[] mine = declared.split("\\.");
        String[] theirs = written.split("\\.");
        if (theirs.length > mine.length) {
            return false;
        }
        for (int i = 0; i < theirs.length; i++) {
            if (!mine[i].equals("*") && !theirs[i].equals("*") && !mine[i].equals(theirs[i])) {
                return false;
            }
        }
        return true;
    }

    /** A declared name as the environment variables that set it ({@code SQLAGENT_SOURCES_*_URL}). */
    private static Pattern variablePattern(String declared) {
        String variable = declared.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9*]", "_");
        return Pattern.compile(Pattern.quote(variable).replace("*", "\\E[A-Z0-9_]+\\Q"));
    }

    private static Set<String> declaredProperties() throws IOException {
        Path classes = Path.of("target/classes");
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String type = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> mapping = load(type);
                ConfigMapping annotation = mapping == null ? null : mapping.getAnnotation(ConfigMapping.class);
                if (mapping != null && ConfigSourceFactory.class.isAssignableFrom(mapping)) {
                    names.addAll(constants(mapping));
                }
                if (annotation != null && annotation.prefix().startsWith("sqlagent")) {
                    ConfigMappings.getProperties(ConfigMappings.ConfigClass.configClass(mapping, annotation.prefix())).keySet()
                            .forEach(name -> names.add(name.replace("[*]", "").replaceAll("\\*\\*?|<[^>]+>", "*")));
                }
            }
        }
        return names;
    }

    /** The settings a config source factory reads before any mapping exists: its name constants. */
    private static Set<String> constants(Class<?> factory) {
        Set<String> names = new TreeSet<>();
        for (Field field : factory.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                try {
                    field.setAccessible(true);
                    String value = (String) field.get(null);
                    if (value != null && value.matches("sqlagent\\.[a-z.-]+")) {
                        names.add(value);
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return names;
    }

    private static Class<?> load(String type) {
        try {
            return Class.forName(type, false, ConfigurationDocsTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static Set<String> documentedProperties() throws IOException {
        List<String> readme = Files.readAllLines(Path.of("docs/configuration.md"));
        int start = readme.indexOf("## Settings");
        Set<String> names = new TreeSet<>();
        for (String line : readme.subList(start + 1, readme.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (!line.startsWith("| `sqlagent.")) {
                continue;
            }
            String cell = line.substring(1, line.indexOf('|', 1));
            Matcher matcher = NAME.matcher(cell);
            String last = null;
            while (matcher.find()) {
                String name = matcher.group(1);
                last = name.startsWith(".") ? last.substring(0, last.lastIndexOf('.')) + name : name;
                names.add(last.replaceAll("\"?<[^>]+>\"?", "*"));
            }
        }
        return names;
    }
}
