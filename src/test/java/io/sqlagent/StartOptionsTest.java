package io.sqlagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * The JIT options docs/operations.md offers for a cheaper start (docs/benchmarks.md, "Start-up and memory")
 * are taken by the JVM the service runs on, with the values given: a misspelt {@code -XX} option
 * stops the JVM before the service starts.
 */
class StartOptionsTest {

    private static final Pattern TIER4 = Pattern.compile("-XX:(Tier4\\w+)=(\\d+)");

    @Test
    void theJvmTakesTheDocumentedJitOptionsAsGiven() throws Exception {
        Map<String, String> options = tier4Options(Files.readString(Path.of("docs/operations.md")));
        assertFalse(options.isEmpty(), "docs/operations.md gives no -XX:Tier4* option");
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
