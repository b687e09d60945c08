package io.sqlagent.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.sqlagent.builtin.PolicyFixture;
import io.sqlagent.sql.source.Source;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The two principals of the isolation tests ({@code PrincipalDoorsTest}, {@code PrincipalIsolationTest}): support
 * representatives 3 and 4, mapped to roles {@code support_rep_3} and {@code support_rep_4}, under a row-level security
 * policy on Chinook's {@code customer} that shows each only their own customers, beside the table policy fixture
 * ({@link PolicyFixture}: denied {@code secret_ledger} and friends, every value starting {@value #SECRET}) and the
 * Features profile's hidden {@code customer.email}. What each may not see is read here as the service, so a test can
 * look for every piece of it in what the other got back.
 */
final class TwoPrincipals {

    /** The prefix of every value the denied tables hold. */
    static final String SECRET = "TOPSECRET";

    private static final Duration WAIT = Duration.ofSeconds(30);

    private TwoPrincipals() {
    }

    /** What one representative's customers are, as the service (no row-level security) reads them. */
    record Customers(List<Integer> ids, List<String> names, List<String> companies, List<String> emails) {

        /** Every text of these customers another principal must never get back. */
        List<String> texts() {
            List<String> texts = new ArrayList<>(names);
            texts.addAll(companies);
            texts.addAll(emails);
            return texts;
        }
    }

    /** The headers of representative {@code rep} with {@code scopes}. */
    static Map<String, String> rep(int rep, String scopes) {
        return TestIdentities.headers("rep" + rep + "@example.com", scopes, "pg_role=support_rep_" + rep);
    }

    /**
     * The representatives' roles, with read access to every table of the table policy fixture (made before, by the
     * {@link PolicyFixture} extension: what refuses a denied table must be the service's table policy, never a missing
     * privilege), and the row-level security policy.
     */
    static void setUp(Source chinook) {
        DatabaseRolesTest.rowLevelSecurity(chinook);
    }

    static void tearDown(Source chinook) {
        DatabaseRolesTest.noRowLevelSecurity(chinook);
    }

    /** Representative {@code rep}'s customers. */
    static Customers customersOf(Source chinook, int rep) {
        var rows = chinook.requirePool().preparedQuery("SELECT customer_id, first_name || ' ' || last_name AS name, "
                + "company, email FROM customer WHERE support_rep_id = $1 ORDER BY customer_id")
                .execute(Tuple.of(rep)).await().atMost(WAIT);
        List<Integer> ids = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> companies = new ArrayList<>();
        List<String> emails = new ArrayList<>();
        for (Row row : rows) {
            ids.add(row.getInteger("customer_id"));
            names.add(row.getString("name"));
            if (row.getString("company") != null) {
                companies.add(row.getString("company"));
            }
            emails.add(row.getString("email"));
        }
        assertThat(ids).as("representative %d's customers", rep).isNotEmpty();
        return new Customers(ids, names, companies, emails);
    }

    /** Every customer's email: the hidden column, which no principal may read. */
    static List<String> allEmails(Source chinook) {
        List<String> emails = new ArrayList<>();
        chinook.requirePool().query("SELECT email FROM customer").execute().await().atMost(WAIT)
                .forEach(row -> emails.add(row.getString("email")));
        return emails;
    }

    /** Asserts {@code text} holds nothing of the denied tables, no hidden email and no text of {@code others}. */
    static void assertNothingOf(String text, Customers others, List<String> emails, String where) {
        assertThat(text).as(where).doesNotContain(SECRET);
        for (String email : emails) {
            assertThat(text).as(where + " (hidden column)").doesNotContain(email);
        }
        for (String other : others.texts()) {
            assertThat(text).as(where + " (another principal's row)").doesNotContain(other);
        }
    }
}
