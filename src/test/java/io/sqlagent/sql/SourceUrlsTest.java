package io.sqlagent.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.sqlagent.Redaction;

class SourceUrlsTest {

    @Test
    void acceptsJdbcAndShortSpellings() {
        assertEquals("postgresql://db:5432/shop", SourceUrls.normalise("jdbc:postgresql://db:5432/shop"));
        assertEquals("postgresql://db/shop", SourceUrls.normalise("postgres://db/shop"));
        assertEquals("postgresql://db/shop", SourceUrls.normalise("  postgresql://db/shop "));
        assertEquals("postgresql://db/shop", SourceUrls.normalise("vertx-reactive:postgresql://db/shop"));
    }

    @Test
    void rejectsOtherSchemesWithoutShowingThePassword() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> SourceUrls.normalise("mysql://root:hunter2@db/shop"));

        assertTrue(error.getMessage().contains("mysql://root:***@db/shop"), error.getMessage());
        assertFalse(error.getMessage().contains("hunter2"));
    }

    @Test
    void redactsPasswordsInUserInfoAndQuery() {
        assertEquals("postgresql://app:***@db:5432/shop", SourceUrls.redact("postgresql://app:s3cret@db:5432/shop"));
        assertEquals("postgresql://db/shop?user=app&password=***&ssl=true",
                SourceUrls.redact("postgresql://db/shop?user=app&password=s3cret&ssl=true"));
        assertEquals("postgresql://app@db/shop", SourceUrls.redact("postgresql://app@db/shop"));
    }

    @Test
    void aPasswordHoldingUrlCharactersIsHiddenWhole() {
        assertEquals("postgresql://app:***@127.0.0.1:1/shop", SourceUrls.redact("postgresql://app:p@ss/w#rd@127.0.0.1:1/shop"));
        assertEquals("jdbc:postgresql://app:***@db/shop?ssl=true",
                SourceUrls.redact("jdbc:postgresql://app:a?b:c@d@db/shop?ssl=true"));
        String message = "Cannot parse invalid connection URI: postgresql://app:p@ss/w#rd@127.0.0.1:1/shop (and more)";
        String redacted = Redaction.redact(message);
        assertEquals("Cannot parse invalid connection URI: postgresql://app:***@127.0.0.1:1/shop (and more)", redacted);
    }

    @Test
    void aPasswordHoldingUrlCharactersIsEncodedSoTheClientReadsItAsOnePassword() {
        String normalised = SourceUrls.normalise("postgresql://app:p@ss/w#rd?+ %zz%41@127.0.0.1:5432/shop?sslmode=disable");

        assertEquals("postgresql://app:p%40ss%2Fw%23rd%3F%2B%20%25zz%41@127.0.0.1:5432/shop?sslmode=disable", normalised);
        io.vertx.pgclient.PgConnectOptions options = io.vertx.pgclient.PgConnectOptions.fromUri(normalised);
        assertEquals("p@ss/w#rd?+ %zzA", options.getPassword());
        assertEquals("127.0.0.1", options.getHost());
        assertEquals("shop", options.getDatabase());
        // An @ in the query is not user info.
        assertEquals("postgresql://db/shop?application_name=a@b",
                SourceUrls.normalise("postgresql://db/shop?application_name=a@b"));
    }

    @Test
    void bearerTokensApiKeysAndConfiguredSecretsAreHidden() {
        Redaction.secret("p@ss/w#rd-registered");

        assertEquals("{\"authorization\":\"Bearer ***\"}",
                Redaction.redact("{\"authorization\":\"Bearer test-key-not-secret\"}"));
        assertEquals("key sk-*** refused", Redaction.redact("key sk-proj-abcdef123456 refused"));
        assertEquals("echo: ***", Redaction.redact("echo: p@ss/w#rd-registered"));
        assertEquals("postgresql://postgres@localhost:5432/chinook",
                Redaction.redact("postgresql://postgres@localhost:5432/chinook"));
    }

    @Test
    void eachSpellingNamesItsEngineWhateverTheCaseOfTheScheme() {
        assertThat(SourceUrls.engine("postgresql://db/shop")).isEqualTo(SourceUrls.POSTGRESQL);
        assertThat(SourceUrls.engine(" POSTGRES://db/shop")).isEqualTo(SourceUrls.POSTGRESQL);
        assertThat(SourceUrls.engine("jdbc:postgresql://db/shop")).isEqualTo(SourceUrls.POSTGRESQL);
        assertThat(SourceUrls.engine("vertx-reactive:postgresql://db/shop")).isEqualTo(SourceUrls.POSTGRESQL);
        assertThat(SourceUrls.engine("mysql://app@db:3306/shop")).isEqualTo(SourceUrls.MYSQL);
        assertThat(SourceUrls.engine("jdbc:mysql://db/shop")).isEqualTo(SourceUrls.MYSQL);
        assertThat(SourceUrls.engine("MariaDB://db/shop")).isEqualTo(SourceUrls.MARIADB);
        assertThat(SourceUrls.engine("jdbc:mariadb://db/shop")).isEqualTo(SourceUrls.MARIADB);
    }

    @Test
    void theCanonicalFormIsTheEnginesOwnWithTheCredentialsEncoded() {
        assertThat(SourceUrls.canonical("jdbc:mariadb://app:p@ss@127.0.0.1:3306/shop"))
                .isEqualTo("mariadb://app:p%40ss@127.0.0.1:3306/shop");
        assertThat(SourceUrls.canonical("JDBC:MYSQL://db/shop")).isEqualTo("mysql://db/shop");
        assertThat(SourceUrls.canonical("postgres://db/shop")).isEqualTo("postgresql://db/shop");
    }

    @Test
    void anUnknownSchemeIsNamedWithTheOnesAcceptedAndNeverThePassword() {
        assertThatThrownBy(() -> SourceUrls.engine("oracle://scott:tiger-pw@db:1521/orcl"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has the scheme 'oracle', which no engine serves")
                .hasMessageContaining("expected postgresql://host:port/database, mysql://host:port/database or "
                        + "mariadb://host:port/database")
                .hasMessageNotContaining("tiger-pw");
        assertThatThrownBy(() -> SourceUrls.engine("db.example.com:5432/shop"))
                .hasMessageContaining("has no scheme");
        assertThatThrownBy(() -> SourceUrls.engine(null)).hasMessageContaining("has no scheme");
        // A MySQL URL is one, but not PostgreSQL's: what the PostgreSQL client is given must be.
        assertThatThrownBy(() -> SourceUrls.normalise("mariadb://db/shop")).hasMessageContaining("is not a PostgreSQL URL");
    }
}
