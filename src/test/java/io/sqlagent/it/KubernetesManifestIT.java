package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** The manifests that {@code ./mvnw package} generates for Kubernetes. */
class KubernetesManifestIT {

    private static List<JsonNode> documents;
    private static JsonNode deployment;
    private static JsonNode container;

    @BeforeAll
    static void readManifest() throws Exception {
        Path manifest = Path.of(System.getProperty("kubernetes.manifest", "target/kubernetes/kubernetes.yml"));
        documents = new ArrayList<>();
        try (var parser = new YAMLMapper().readerFor(JsonNode.class).readValues(manifest.toFile())) {
            while (parser.hasNext()) {
                documents.add((JsonNode) parser.next());
            }
        }
        deployment = documents.stream().filter(d -> d.path("kind").asText().equals("Deployment")).findFirst().orElseThrow();
        container = deployment.at("/spec/template/spec/containers/0");
    }

    @Test
    void probesUseTheHealthEndpoints() {
        assertEquals("/q/health/live", container.at("/livenessProbe/httpGet/path").asText());
        assertEquals("/q/health/ready", container.at("/readinessProbe/httpGet/path").asText());
        assertEquals("/q/health/started", container.at("/startupProbe/httpGet/path").asText());
        assertTrue(container.at("/startupProbe/failureThreshold").asInt() * periodSeconds(container.at("/startupProbe")) >= 60,
                "the startup probe must allow at least 60 s");
    }

    @Test
    void resourcesHaveRequestsAndLimits() {
        JsonNode resources = container.path("resources");
        assertEquals("250m", resources.at("/requests/cpu").asText());
        assertEquals("384Mi", resources.at("/requests/memory").asText());
        assertEquals("2", resources.at("/limits/cpu").asText());
        assertEquals("1Gi", resources.at("/limits/memory").asText());
    }

    @Test
    void connectionSettingsComeFromASecretAndAConfigMap() {
        List<String> references = new ArrayList<>();
        container.path("envFrom").forEach(from -> {
            if (from.has("secretRef")) {
                references.add("secret:" + from.at("/secretRef/name").asText());
            }
            if (from.has("configMapRef")) {
                references.add("configmap:" + from.at("/configMapRef/name").asText());
            }
        });
        assertTrue(references.contains("secret:sqlagent-db"), references.toString());
        assertTrue(references.contains("configmap:sqlagent-config"), references.toString());

        List<String> baked = new ArrayList<>();
        container.path("env").forEach(env -> baked.add(env.path("name").asText()));
        assertTrue(baked.contains("SQLAGENT_EMBEDDED_ENABLED"), baked.toString());
        assertFalse(baked.stream().anyMatch(name -> name.contains("URL") || name.contains("PASSWORD") || name.contains("USERNAME")),
                "connection settings are baked into the manifest: " + baked);
        container.path("env").forEach(env -> {
            if (env.path("name").asText().equals("SQLAGENT_EMBEDDED_ENABLED")) {
                assertEquals("false", env.path("value").asText());
            }
        });
    }

    @Test
    void podsAreAnnotatedForPrometheusScraping() {
        JsonNode annotations = deployment.at("/spec/template/metadata/annotations");
        assertEquals("true", annotations.path("prometheus.io/scrape").asText());
        assertEquals("/q/metrics", annotations.path("prometheus.io/path").asText());
        assertEquals("8080", annotations.path("prometheus.io/port").asText());
    }

    @Test
    void noServiceMonitorUnlessAskedFor() {
        assertFalse(documents.stream().anyMatch(d -> d.path("kind").asText().equals("ServiceMonitor")));
        assertTrue(documents.stream().anyMatch(d -> d.path("kind").asText().equals("Service")));
    }

    private static int periodSeconds(JsonNode probe) {
        return probe.path("periodSeconds").asInt(10);
    }
}
