package io.sqlagent.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.sqlagent.Redaction;

/** The example credentials the project ships are refused as settings, with what to set instead. */
class PlaceholderSecretCheckTest {

    @Test
    void everyCredentialOfTheExampleSecretIsRefused() throws Exception {
        JsonNode values = new YAMLMapper().readTree(Path.of("k8s/secret.example.yaml").toFile()).path("stringData");
        Set<String> credentials = Set.of("QUARKUS_DATASOURCE_PASSWORD", "SQLAGENT_SOURCES_DEFAULT_PASSWORD",
                "QUARKUS_LANGCHAIN4J_OPENAI_API_KEY", "SQLAGENT_AUTH_BOOTSTRAP_KEY");
        for (String name : credentials) {
            assertTrue(PlaceholderSecretCheck.isPlaceholder(values.path(name).asText()), name + " = " + values.path(name));
        }
        // The commented-out OIDC client secret, too.
        String text = Files.readString(Path.of("k8s/secret.example.yaml"));
        String oidc = text.replaceAll("(?s).*QUARKUS_OIDC_CREDENTIALS_SECRET: \"([^\"]*)\".*", "$1");
        assertTrue(PlaceholderSecretCheck.isPlaceholder(oidc), oidc);
    }

    @Test
    void theDocsExampleValuesAndOtherSpellingsAreRefused() {
        for (String value : Set.of("sk-...", "...", "CHANGE-ME", "changeme", "Change_Me_Please", " change-me ", "<key>",
                "postgresql://app:change-me@db:5432/shop", "postgresql://app:...@db/shop")) {
            assertTrue(PlaceholderSecretCheck.isPlaceholder(value), value);
        }
        for (String value : Set.of("sk-proj-3f9c2a1bd0e4", "0f8e4c1d2b3a49f0a1b2c3d4e5f60718", "not-configured",
                "postgresql://app:s3cret@db:5432/changes", "https://api.openai.com/v1/", "exchange-metrics")) {
            assertFalse(PlaceholderSecretCheck.isPlaceholder(value), value);
        }
    }

    @Test
    void eachSettingIsNamedAsItWasSetWithWhatToDo() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(Map.of(
                "SQLAGENT_AUTH_BOOTSTRAP_KEY", "change-me-to-a-long-random-key",
                "sqlagent.sources.warehouse.password", "change-me-too",
                "quarkus.langchain4j.openai.api-key", "sk-change-me",
                "quarkus.datasource.password", "a-real-one",
                "sqlagent.sql.timeout", "change-me"), "test", 100)).build();

        Map<String, String> found = PlaceholderSecretCheck.placeholders(config);

        assertEquals(Set.of("SQLAGENT_AUTH_BOOTSTRAP_KEY", "sqlagent.sources.warehouse.password",
                "quarkus.langchain4j.openai.api-key"), found.keySet(), "only credential settings: " + found);
        String message = PlaceholderSecretCheck.problem(found);
        assertTrue(message.contains("SQLAGENT_AUTH_BOOTSTRAP_KEY = 'change-me-to-a-long-random-key': a long random value, "
                + "for example from: openssl rand -hex 32"), message);
        assertTrue(message.contains("sqlagent.sources.warehouse.password = 'change-me-too': the database role's real password"),
                message);
        assertTrue(message.contains("quarkus.langchain4j.openai.api-key = 'sk-change-me': your model provider's API key"),
                message);
        assertNull(PlaceholderSecretCheck.problem(Map.of()));
    }

    @Test
    void aSettingSetAsAnEnvironmentVariableIsNamedOnceAsItWasSet() {
        // An environment variable is seen both as itself and as the property it sets.
        SmallRyeConfig config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(Map.of(
                "QUARKUS_LANGCHAIN4J_OPENAI_API_KEY", "sk-change-me",
                "quarkus.langchain4j.openai.api-key", "sk-change-me",
                "sqlagent.auth.bootstrap-key", "change-me-to-a-long-random-key"), "test", 100)).build();

        Map<String, String> found = PlaceholderSecretCheck.placeholders(config);

        assertThat(found).containsOnlyKeys("QUARKUS_LANGCHAIN4J_OPENAI_API_KEY", "sqlagent.auth.bootstrap-key");
    }

    @Test
    void theLogShowsAnExampleValueButHidesARealKey() {
        String message = PlaceholderSecretCheck.problem(Map.of("QUARKUS_LANGCHAIN4J_OPENAI_API_KEY", "sk-change-me"));

        assertThat(Redaction.redact(message)).contains("QUARKUS_LANGCHAIN4J_OPENAI_API_KEY = 'sk-change-me'");
        assertThat(Redaction.redact("the key sk-proj-3f9c2a1bd0e4 was refused")).isEqualTo("the key sk-*** was refused");
    }
}
