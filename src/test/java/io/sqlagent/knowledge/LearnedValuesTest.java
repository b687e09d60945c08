package io.sqlagent.knowledge;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.sqlagent.sql.guard.SqlLiterals;
import io.sqlagent.sql.run.SqlErrorOccurred;

/**
 * No value a caller saw reaches an auto-learning's title, description or SQL, whatever the spelling of the literal
 * or the shape of PostgreSQL's message: escaped quotes, dollar quotes, E'' and U&'' strings, numbers, details and
 * hints, key and row details, values written where a name belongs. Names of the schema stay: a learning is about them.
 */
class LearnedValuesTest {

    private static final String SECRET = "Acme";

    private static AutoLearning.Learned learned(String sqlState, String message, String failing, String fixed) {
        return AutoLearning.learned(new SqlErrorOccurred("default", failing, sqlState, message, Optional.of("c")), fixed);
    }

    private static void assertNoSecret(AutoLearning.Learned learned, String... secrets) {
        for (String text : List.of(learned.title(), learned.description(), learned.sql())) {
            for (String secret : secrets) {
                assertThat(text, text.toLowerCase(), not(containsString(secret.toLowerCase())));
            }
        }
    }

    private static org.hamcrest.Matcher<String> without(String... parts) {
        return allOf(java.util.Arrays.stream(parts).map(part -> not(containsString(part))).toList()
                .toArray(org.hamcrest.Matcher[]::new));
    }

    @Test
    void literalsOfEverySpellingLeaveTheSql() {
        String sql = "SELECT * FROM customer WHERE company = 'Acme''s Corp' OR company = E'Acme\\'s' OR company = $$Acme$$"
                + " OR company = $q$Acme 'x' $q$ OR company = U&'Acme' OR company = N'Acme' OR balance = 12345.67"
                + " OR balance > 1e5 OR id = 0x1F OR id = 1_000 OR code = B'1010' OR code = X'ACE' /* Acme */ -- Acme";
        String masked = SqlLiterals.mask(sql);
        assertThat(masked, without("Acme", "12345", "1e5", "x1F", "_000", "1010", "ACE"));
        assertThat(masked, startsWith("SELECT * FROM customer WHERE company = ? OR company = ? OR company = ? OR company = ?"));
    }

    @Test
    void quotedValuesLeaveMessagesWhateverTheQuotesInside() {
        assertThat(SqlLiterals.maskMessage("invalid input syntax for type integer: \"Acme \"Corp\" Ltd\""),
                is("invalid input syntax for type integer: \"?\""));
        assertThat(SqlLiterals.maskMessage("invalid input syntax for type integer: \"Acme"),
                is("invalid input syntax for type integer: \"?\""));
        assertThat(SqlLiterals.maskMessage("invalid input value for enum mood: \"Acme's\""), without("Acme"));
        assertThat(SqlLiterals.maskMessage("value \"99999999999\" is out of range for type integer"),
                is("value \"?\" is out of range for type integer"));
        assertThat(SqlLiterals.maskMessage("invalid byte sequence for encoding \"UTF8\": 0xe2 0x82"),
                is("invalid byte sequence for encoding \"?\": ? ?"));
        assertThat(SqlLiterals.maskMessage("setval: value 4242 is out of bounds for sequence \"s\" (1..10)"), without("4242"));
    }

    @Test
    void detailsHintsKeysAndRowsLoseTheirValues() {
        String message = "duplicate key value violates unique constraint \"customer_email_key\" (SQLSTATE 23505)"
                + " at character 30: WHERE email = 'ada@acme.com'. Detail: Key (email, company)=(ada@acme.com, Acme (EU)) already exists.";
        String masked = SqlLiterals.maskMessage(message);
        assertThat(masked, without("ada@", "acme", "Acme", "EU"));
        assertThat(masked,
                allOf(containsString("Key (email, company)=(?)"), containsString("constraint \"customer_email_key\"")));
        assertThat(SqlLiterals.maskMessage("Key (name)=(Acme (Corp) is not present in table \"customer\"."),
                without("Acme", "Corp"));
        String row = SqlLiterals
                .maskMessage("new row violates check constraint \"c\". Detail: Failing row contains (7, Acme, null).");
        assertThat(row, allOf(without("Acme"), containsString("Failing row contains (?)")));
        assertThat(SqlLiterals.maskMessage("invalid input syntax for type json. Detail: Token \"Acme\" is invalid."),
                without("Acme"));
    }

    @Test
    void aValueWrittenWhereANameBelongsIsMaskedAndRealNamesStay() {
        // Double quotes make an identifier: the value comes back as a column's name.
        AutoLearning.Learned quoted = learned("42703", "column \"Acme Corp\" does not exist (SQLSTATE 42703)",
                "SELECT * FROM customer WHERE company = \"Acme Corp\"", "SELECT * FROM customer WHERE company = 'Acme Corp'");
        assertNoSecret(quoted, SECRET);
        assertThat(quoted.title(), is("column \"?\" does not exist"));
        assertThat(quoted.description(), containsString("WHERE company = ?"));
        // Unquoted, PostgreSQL folds it: the fix's literal gives it away as a value.
        AutoLearning.Learned bare = learned("42703", "column \"acme\" does not exist",
                "SELECT * FROM customer WHERE company = Acme", "SELECT * FROM customer WHERE company = 'Acme'");
        assertNoSecret(bare, SECRET);
        // Even when the fix gives up on the value, a name that cannot be a name goes.
        assertNoSecret(learned("42703", "column \"Acme & Sons\" does not exist",
                "SELECT * FROM customer WHERE company = \"Acme & Sons\"", "SELECT count(*) FROM customer"), SECRET);
        // A typo of a real name is what the learning is about: it stays, with the hint's name.
        AutoLearning.Learned typo = learned("42703", "column \"custmer_id\" does not exist (SQLSTATE 42703). "
                + "Hint: Perhaps you meant to reference the column \"invoice.customer_id\".",
                "SELECT custmer_id FROM invoice WHERE total > 100", "SELECT customer_id FROM invoice WHERE total > 100");
        assertThat(typo.title(), is("column \"custmer_id\" does not exist"));
        assertThat(typo.description(), containsString("SELECT custmer_id FROM invoice WHERE total > ?"));
        assertThat(typo.sql(), is("SELECT customer_id FROM invoice WHERE total > ?"));
    }

    @Test
    void theLearningOfATypeErrorCarriesNoValue() {
        AutoLearning.Learned learned = learned("22P02",
                "invalid input syntax for type integer: \"Acme\nCorp\" (SQLSTATE 22P02) at character 41: company_id = 'Acme",
                "SELECT * FROM invoice WHERE company_id = $v$Acme\nCorp$v$", "SELECT * FROM invoice i JOIN customer c"
                        + " USING (customer_id) WHERE c.company = E'Acme\\nCorp' AND i.total > 17.5");
        assertNoSecret(learned, SECRET, "Corp", "17.5");
        assertThat(learned.title(), is("invalid input syntax for type integer: \"?\""));
        assertThat(learned.sql(), allOf(containsString("USING (customer_id)"), containsString("c.company = ?")));
    }
}
