package io.sqlagent;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.sqlagent.agent.ScriptedModel;

/**
 * The {@code @QuarkusTest} classes run in the few applications docs/development.md counts: Quarkus builds and starts
 * one application for each distinct test profile and set of test resources (about 20 s of CPU each on 2 cores), so a
 * class that brings a profile, a test resource or a {@code @ScriptedModel} timeout of its own fails here, naming it,
 * instead of slowing {@code ./mvnw verify} unnoticed. Join one of {@link TestProfiles} instead.
 */
class TestApplicationsTest {

    @Test
    void quarkusTestsShareSevenApplications() throws Exception {
        Map<String, List<String>> applications = new TreeMap<>();
        // The compiled test classes, read by reflection without initialising them.
        Path root = Path.of(getClass().getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(file -> file.getFileName().toString().endsWith("Test.class")).toList();
        }
        for (Path file : files) {
            String name = root.relativize(file).toString().replace(java.io.File.separatorChar, '.');
            Class<?> type = Class.forName(name.substring(0, name.length() - ".class".length()), false,
                    getClass().getClassLoader());
            if (type.isAnnotationPresent(QuarkusTest.class)) {
                applications.computeIfAbsent(application(type), key -> new ArrayList<>()).add(type.getSimpleName());
            }
        }
        assertThat(applications.keySet())
                .as("the applications the @QuarkusTest classes need: %s", applications)
                .containsExactlyInAnyOrder(
                        "default profile + ScriptedModelResource(timeout 5s)",
                        "default profile + ExternalPostgresResource",
                        "TestProfiles.Features + ScriptedModelResource(timeout 5s)",
                        "TestProfiles.TightAgent + ScriptedModelResource(timeout 1s)",
                        "TestProfiles.Restricted",
                        "TestProfiles.Replayed",
                        "BrokenSourceTest.Profile");
    }

    /** What makes Quarkus build and start an application of its own: the profile and the test resources. */
    private static String application(Class<?> type) {
        TestProfile profile = type.getAnnotation(TestProfile.class);
        StringBuilder key = new StringBuilder(profile == null ? "default profile"
                : profile.value().getName().substring(profile.value().getPackageName().length() + 1).replace('$', '.'));
        TreeSet<String> resources = new TreeSet<>();
        for (Annotation annotation : type.getAnnotations()) {
            if (annotation instanceof WithTestResource direct) {
                resources.add(direct.value().getSimpleName());
            } else if (annotation instanceof ScriptedModel model) {
                WithTestResource meta = ScriptedModel.class.getAnnotation(WithTestResource.class);
                resources.add(meta.value().getSimpleName() + "(timeout " + model.timeout() + ")");
            }
        }
        resources.forEach(resource -> key.append(" + ").append(resource));
        return key.toString();
    }
}
