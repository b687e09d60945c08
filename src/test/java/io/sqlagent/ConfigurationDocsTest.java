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
