package io.sqlagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The JIT options that make a start cheaper (docs/benchmarks.md, "Start-up and memory") are given
 * the same in the README's start command and in the container image, and the JVM the service runs
 * on takes them: a misspelt {@code -XX} option stops the JVM before the service starts, in the image
 * too, where nothing else would run it before a pod does.
 */
class StartOptionsTest {

    private static final Pattern TIER4 = Pattern.compile("-XX:(Tier4\\w+)=(\\d+)");

    @Test
    void theReadmeAndTheImageGiveTheSameJitOptions() throws IOException {
        Map<String, String> readme = tier4Options(Files.readString(Path.of("README.md")));
        Map<String, String> image = tier4Options(Files.readString(Path.of("src/main/docker/Dockerfile.jvm")));

        assertFalse(image.isEmpty(), "the image sets no -XX:Tier4* option");
        assertEquals(image, readme, "README.md's start command and Dockerfile.jvm's JAVA_OPTS_APPEND");
    }

    @Test
    void theJvmTakesThemAsGiven() throws Exception {
        Map<String, String> options = tier4Options(Files.readString(Path.of("src/main/docker/Dockerfile.jvm")));
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        options.forEach((name, value) -> command.add("-XX:" + name + "=" + value));
        command.add("-XX:+PrintFlagsFinal");
        command.add("-version");
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(java.waitFor(60, TimeUnit.SECONDS), "java -version did not end");

        assertEquals(0, java.exitValue(), output);
        options.forEach((name, value) -> assertTrue(
                Pattern.compile("\\b" + name + "\\s+=\\s+" + value + "\\s").matcher(output).find(),
                name + " is not " + value + " in the JVM's final flags"));
    }

    /** The {@code -XX:Tier4…=n} options a file names, by name; one named twice with two values fails. */
    private static Map<String, String> tier4Options(String text) {
        Map<String, String> options = new TreeMap<>();
        Matcher matcher = TIER4.matcher(text);
        while (matcher.find()) {
            String before = options.put(matcher.group(1), matcher.group(2));
            assertTrue(before == null || before.equals(matcher.group(2)), matcher.group(1) + " is given two values");
        }
        return options;
    }
}
