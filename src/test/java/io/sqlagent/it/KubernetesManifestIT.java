package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** The manifests that {@code ./mvnw package} generates for Kubernetes. */
class KubernetesManifestIT {

    /** What a build stamps into a manifest and an unchanged build would change: dates, commit ids, local paths. */
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern COMMIT_ID = Pattern.compile("\\b[0-9a-f]{40}\\b");
    private static final String PROJECT_DIRECTORY = Path.of("").toAbsolutePath().toString();

    private static String manifestText;
    private static List<JsonNode> documents;
    private static JsonNode deployment;
    private static JsonNode container;

    @BeforeAll
    static void readManifest() throws Exception {
        Path manifest = Path.of(System.getProperty("kubernetes.manifest", "target/kubernetes/kubernetes.yml"));
        manifestText = Files.readString(manifest);
        documents = readAll(manifest);
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
        assertEquals("512Mi", resources.at("/requests/memory").asText());
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
        assertFalse(
                baked.stream().anyMatch(name -> name.contains("URL") || name.contains("PASSWORD") || name.contains("USERNAME")),
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
    void twoReplicasPreferDifferentNodesAndARolloutKeepsEveryOneServing() {
        assertEquals(2, deployment.at("/spec/replicas").asInt());
        assertEquals("RollingUpdate", deployment.at("/spec/strategy/type").asText());
        // Integers: Kubernetes takes a string there only as a percentage ("25%"); "0" and "1" are refused.
        JsonNode rollingUpdate = deployment.at("/spec/strategy/rollingUpdate");
        assertTrue(rollingUpdate.path("maxUnavailable").isInt(), rollingUpdate.toString());
        assertTrue(rollingUpdate.path("maxSurge").isInt(), rollingUpdate.toString());
        assertEquals(0, rollingUpdate.path("maxUnavailable").intValue());
        assertEquals(1, rollingUpdate.path("maxSurge").intValue());
        JsonNode preferred = deployment
                .at("/spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/0");
        assertEquals("kubernetes.io/hostname", preferred.at("/podAffinityTerm/topologyKey").asText(), deployment.toString());
        assertPodsMatch(preferred.at("/podAffinityTerm/labelSelector/matchLabels"));
        // The merged fragment adds to the generated Deployment, it does not replace it.
        assertEquals("/q/health/ready", container.at("/readinessProbe/httpGet/path").asText());
        assertEquals(1, documents.stream().filter(d -> d.path("kind").asText().equals("Deployment")).count());
    }

    /**
     * What the "restricted" Pod Security Standard checks, field by field and with its types: a
     * namespace labelled {@code pod-security.kubernetes.io/enforce: restricted} admits the pods.
     */
    @Test
    void thePodsPassARestrictedNamespace() {
        JsonNode pod = deployment.at("/spec/template/spec/securityContext");
        assertEquals(true, pod.path("runAsNonRoot").isBoolean() && pod.path("runAsNonRoot").booleanValue(), pod.toString());
        assertTrue(pod.path("runAsUser").isInt() && pod.path("runAsUser").intValue() > 0, pod.toString());
        assertEquals("RuntimeDefault", pod.at("/seccompProfile/type").textValue(), pod.toString());
        assertEquals(1, deployment.at("/spec/template/spec/containers").size(), "one container, checked here");

        JsonNode security = container.path("securityContext");
        assertTrue(security.path("allowPrivilegeEscalation").isBoolean(), security.toString());
        assertFalse(security.path("allowPrivilegeEscalation").booleanValue(), security.toString());
        assertTrue(security.path("readOnlyRootFilesystem").isBoolean(), security.toString());
        assertTrue(security.path("readOnlyRootFilesystem").booleanValue(), security.toString());
        assertEquals(List.of("ALL"), texts(security.at("/capabilities/drop")), security.toString());
        assertTrue(security.at("/capabilities/add").isMissingNode(), security.toString());
        assertFalse(security.path("privileged").asBoolean(false), security.toString());
    }

    /**
     * With a read-only root filesystem, every place the service writes is an emptyDir: /tmp (the JVM,
     * Vert.x's file cache) and the directory the vector indexes and the embedded data directory are
     * set to, by absolute path.
     */
    @Test
    void everyPlaceTheServiceWritesIsAnEmptyDirVolume() {
        Map<String, String> mounts = new java.util.TreeMap<>();
        container.path("volumeMounts").forEach(mount -> {
            assertFalse(mount.path("readOnly").asBoolean(false), mount.toString());
            mounts.put(mount.path("mountPath").textValue(), mount.path("name").textValue());
        });
        Map<String, JsonNode> volumes = new java.util.TreeMap<>();
        deployment.at("/spec/template/spec/volumes").forEach(volume -> volumes.put(volume.path("name").textValue(), volume));
        mounts.forEach((path, name) -> {
            assertTrue(volumes.containsKey(name), path + ": no volume " + name + " in " + volumes.keySet());
            assertTrue(volumes.get(name).path("emptyDir").isObject(), path + ": not an emptyDir: " + volumes.get(name));
        });
        Map<String, String> env = new java.util.TreeMap<>();
        container.path("env").forEach(variable -> env.put(variable.path("name").textValue(), variable.path("value").asText()));
        List<String> written = List.of("/tmp", env.getOrDefault("SQLAGENT_VECTOR_PATH", "(unset: under the working directory)"),
                env.getOrDefault("SQLAGENT_EMBEDDED_DATA_DIR", "(unset: under the working directory)"));
        for (String path : written) {
            assertTrue(mounts.keySet().stream().anyMatch(mount -> path.equals(mount) || path.startsWith(mount + "/")),
                    path + " is on the read-only root filesystem; mounts: " + mounts);
        }
    }

    /** The files of k8s/ hold the types Kubernetes asks for: strings in a ConfigMap and a Secret, integers for counts. */
    @Test
    void theShippedManifestsHoldTheTypesKubernetesAsksFor() throws Exception {
        JsonNode configMap = readAll(Path.of("k8s/configmap.yaml")).get(0);
        configMap.path("data").properties().forEach(entry -> assertTrue(entry.getValue().isTextual(),
                "ConfigMap data must be strings: " + entry.getKey() + ": " + entry.getValue()));
        JsonNode secret = readAll(Path.of("k8s/secret.example.yaml")).get(0);
        secret.path("stringData").properties().forEach(entry -> assertTrue(entry.getValue().isTextual(),
                "Secret stringData must be strings: " + entry.getKey() + ": " + entry.getValue()));
        JsonNode budget = readAll(Path.of("k8s/poddisruptionbudget.yaml")).get(0);
        assertTrue(budget.at("/spec/minAvailable").isInt(), budget.toString());
        JsonNode autoscaler = readAll(Path.of("k8s/hpa.yaml")).get(0);
        for (String field : List.of("/spec/minReplicas", "/spec/maxReplicas",
                "/spec/metrics/0/resource/target/averageUtilization",
                "/spec/behavior/scaleDown/stabilizationWindowSeconds", "/spec/behavior/scaleDown/policies/0/value",
                "/spec/behavior/scaleDown/policies/0/periodSeconds")) {
            assertTrue(autoscaler.at(field).isInt(), field + ": " + autoscaler.at(field));
        }
        JsonNode monitor = readAll(Path.of("k8s/servicemonitor.yaml")).get(0);
        assertTrue(monitor.at("/spec/endpoints/0/interval").isTextual(), monitor.toString());
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.isTextual() ? value.textValue() : value.toString()));
        return values;
    }

    @Test
    void theDisruptionBudgetAndTheAutoscalerSelectTheDeploymentsPods() throws Exception {
        JsonNode budget = readAll(Path.of("k8s/poddisruptionbudget.yaml")).get(0);
        assertEquals("PodDisruptionBudget", budget.path("kind").asText());
        assertEquals(1, budget.at("/spec/minAvailable").asInt());
        assertTrue(budget.at("/spec/minAvailable").asInt() < deployment.at("/spec/replicas").asInt(),
                "a budget that keeps every replica blocks every node drain");
        assertPodsMatch(budget.at("/spec/selector/matchLabels"));

        JsonNode autoscaler = readAll(Path.of("k8s/hpa.yaml")).get(0);
        assertEquals("HorizontalPodAutoscaler", autoscaler.path("kind").asText());
        assertEquals("Deployment", autoscaler.at("/spec/scaleTargetRef/kind").asText());
        assertEquals(deployment.at("/metadata/name").asText(), autoscaler.at("/spec/scaleTargetRef/name").asText());
        assertTrue(autoscaler.at("/spec/minReplicas").asInt() > budget.at("/spec/minAvailable").asInt());
    }

    /** Every label of {@code selector} is on the Deployment's pods, with the same value. */
    private static void assertPodsMatch(JsonNode selector) {
        JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
        assertFalse(selector.isEmpty(), "no selector");
        selector.properties().forEach(label -> assertEquals(label.getValue().asText(), podLabels.path(label.getKey()).asText(),
                "the pods do not carry " + label.getKey() + ": " + podLabels));
    }

    @Test
    void noServiceMonitorUnlessAskedFor() {
        assertFalse(documents.stream().anyMatch(d -> d.path("kind").asText().equals("ServiceMonitor")));
        assertTrue(documents.stream().anyMatch(d -> d.path("kind").asText().equals("Service")));
    }

    @Test
    void theSelectorsDoNotPinTheVersionSoTheNextVersionApplies() {
        // A Deployment's selector is immutable: with the version in it, applying the next version fails.
        String version = container.path("image").asText().replaceFirst(".*:", "");
        JsonNode service = documents.stream().filter(d -> d.path("kind").asText().equals("Service")).findFirst().orElseThrow();
        JsonNode templateLabels = deployment.at("/spec/template/metadata/labels");
        for (JsonNode selector : List.of(deployment.at("/spec/selector/matchLabels"), service.at("/spec/selector"))) {
            assertFalse(selector.isEmpty(), "no selector");
            assertFalse(selector.has("app.kubernetes.io/version"), "the selector pins the version: " + selector);
            selector.properties().forEach(label -> {
                assertFalse(label.getValue().asText().contains(version),
                        "the selector holds the version " + version + ": " + selector);
                assertEquals(label.getValue().asText(), templateLabels.path(label.getKey()).asText(),
                        "the pods do not carry the selector's label " + label.getKey());
            });
        }
    }

    @Test
    void theManifestsHoldNothingThatChangesFromBuildToBuild() {
        // An unchanged build must give the same bytes, or re-applying it rolls every pod for nothing.
        for (JsonNode document : documents) {
            List<JsonNode> metadata = List.of(document.path("metadata"), document.at("/spec/template/metadata"));
            for (JsonNode meta : metadata) {
                for (String field : List.of("annotations", "labels")) {
                    meta.path(field).properties().forEach(entry -> assertStable(document, entry));
                }
            }
        }
        assertFalse(DATE.matcher(manifestText).find(), "the manifest holds a date: " + firstMatch(DATE));
        assertFalse(COMMIT_ID.matcher(manifestText).find(), "the manifest holds a commit id: " + firstMatch(COMMIT_ID));
        assertFalse(manifestText.contains(PROJECT_DIRECTORY), "the manifest holds the build's directory " + PROJECT_DIRECTORY);
        // "file:/", not "file:": seccompProfile: is a field of the restricted pod.
        assertFalse(manifestText.contains("file:/"), "the manifest holds a local repository URL");
    }

    @Test
    void theServiceListensOnEveryInterfaceOfThePod() {
        // The service's own default is localhost: the probes and the Service would never reach it.
        assertEquals(List.of("0.0.0.0"), envValues("QUARKUS_HTTP_HOST"), container.path("env").toString());
    }

    @Test
    void thePodLogsJsonLinesForTheClustersLogCollector() {
        // The service's own default is one readable line each, for a terminal.
        assertEquals(List.of("true"), envValues("QUARKUS_LOG_CONSOLE_JSON_ENABLED"), container.path("env").toString());
    }

    private List<String> envValues(String name) {
        List<String> values = new ArrayList<>();
        container.path("env").forEach(env -> {
            if (env.path("name").asText().equals(name)) {
                values.add(env.path("value").asText());
            }
        });
        return values;
    }

    @Test
    void theExampleSecretIsTheOneTheDeploymentReadsAndHoldsTheModelSettings() throws Exception {
        JsonNode secret = readAll(Path.of("k8s/secret.example.yaml")).get(0);
        assertEquals("Secret", secret.path("kind").asText());
        List<String> secretRefs = new ArrayList<>();
        container.path("envFrom").forEach(from -> secretRefs.add(from.at("/secretRef/name").asText()));
        assertTrue(secretRefs.contains(secret.at("/metadata/name").asText()), secretRefs.toString());
        JsonNode settings = secret.path("stringData");
        for (String name : List.of("QUARKUS_DATASOURCE_REACTIVE_URL", "SQLAGENT_SOURCES_DEFAULT_URL",
                "QUARKUS_LANGCHAIN4J_OPENAI_API_KEY", "QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL",
                "QUARKUS_LANGCHAIN4J_OPENAI_CHAT_MODEL_MODEL_NAME")) {
            assertFalse(settings.path(name).asText().isBlank(), "the example Secret has no " + name + ": " + settings);
        }
    }

    @Test
    void authenticationIsOnWithTheModeFromTheConfigMapAndTheBootstrapKeyFromTheSecret() throws Exception {
        JsonNode mode = null;
        for (JsonNode env : container.path("env")) {
            if (env.path("name").asText().equals("SQLAGENT_AUTH_MODE")) {
                mode = env;
            }
        }
        assertTrue(mode != null, "the Deployment does not set SQLAGENT_AUTH_MODE: " + container.path("env"));
        // A required key of the ConfigMap: without it the pod does not start, rather than start open.
        assertEquals("sqlagent-config", mode.at("/valueFrom/configMapKeyRef/name").asText(), mode.toString());
        assertEquals("SQLAGENT_AUTH_MODE", mode.at("/valueFrom/configMapKeyRef/key").asText(), mode.toString());
        assertFalse(mode.at("/valueFrom/configMapKeyRef/optional").asBoolean(false), mode.toString());

        JsonNode configMap = readAll(Path.of("k8s/configmap.yaml")).get(0);
        String shipped = configMap.at("/data/SQLAGENT_AUTH_MODE").asText();
        assertTrue(List.of("api-key", "oidc", "api-key,oidc").contains(shipped), "the ConfigMap ships mode " + shipped);
        JsonNode secret = readAll(Path.of("k8s/secret.example.yaml")).get(0);
        assertTrue(secret.at("/stringData/SQLAGENT_AUTH_BOOTSTRAP_KEY").asText().length() >= 16, secret.toString());
    }

    private static void assertStable(JsonNode document, Map.Entry<String, JsonNode> entry) {
        String where = document.path("kind").asText() + " " + entry.getKey() + "=" + entry.getValue().asText();
        for (String stamped : List.of("timestamp", "commit", "vcs")) {
            assertFalse(entry.getKey().contains(stamped), "build-specific metadata: " + where);
        }
        String value = entry.getValue().asText();
        assertFalse(DATE.matcher(value).find() || COMMIT_ID.matcher(value).find() || value.contains(PROJECT_DIRECTORY)
                || value.startsWith("file:"), "build-specific metadata: " + where);
    }

    private static String firstMatch(Pattern pattern) {
        return manifestText.lines().filter(line -> pattern.matcher(line).find()).findFirst().orElse("");
    }

    private static List<JsonNode> readAll(Path yaml) throws Exception {
        List<JsonNode> read = new ArrayList<>();
        try (var parser = new YAMLMapper().readerFor(JsonNode.class).readValues(yaml.toFile())) {
            while (parser.hasNext()) {
                read.add((JsonNode) parser.next());
            }
        }
        return read;
    }

    private static int periodSeconds(JsonNode probe) {
        return probe.path("periodSeconds").asInt(10);
    }
}
