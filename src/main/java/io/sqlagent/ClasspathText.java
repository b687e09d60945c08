package io.sqlagent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Reads UTF-8 text resources shipped in the application (SQL scripts, knowledge files). */
public final class ClasspathText {

    private ClasspathText() {
    }

    /** The resource's text, or empty when there is no such resource. */
    public static Optional<String> find(String path) {
        try (InputStream in = ClasspathText.class.getClassLoader().getResourceAsStream(path)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read classpath resource " + path, e);
        }
    }

    /**
     * The resource's text.
     *
     * @throws IllegalStateException when the resource is missing
     */
    public static String require(String path) {
        return find(path).orElseThrow(() -> new IllegalStateException("classpath resource " + path + " is missing"));
    }
}
