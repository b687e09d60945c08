package io.sqlagent.declarative;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.sqlagent.TestProfiles;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.builtin.PolicyFixture;
import io.sqlagent.sql.Source;

/**
 * Declared tools obey the table policy as run_sql does ({@code TestProfiles.Features}: hidden {@code customer.email},
 * denied {@code secret_ledger}): a statement that reads a hidden column or a denied table does not load, with the file
 * and line of the statement, and one whose plan only a call can tell is refused at that call.
 */
@QuarkusTest
@TestProfile(TestProfiles.Features.class)
@ScriptedModel
class DeclaredToolsPolicyTest {

    private static final Path FILE = DeclaredToolsFiles.RELOAD_DIR.resolve("policy.yml");

    @Inject
    DeclarativeTools tools;

    @RegisterExtension
    static final PolicyFixture POLICY = new PolicyFixture();

    private static Source source() {
        return PolicyFixture.source();
    }

    @AfterEach
    void removeTheFileAndTheViews() throws IOException {
        Files.deleteIfExists(FILE);
        source().executeWriting("DROP VIEW IF EXISTS public.late_contacts, public.late_notes").await()
                .atMost(Duration.ofSeconds(10));
        assertTrue(tools.reload().applied());
    }

    private static String tool(String name, String statement) {
        return """
                tools:
                  %s:
                    source: default
                    description: A probe of the table policy.
                    statement: %s
                    parameters:
                      - { name: id, type: integer, required: true }
                """.formatted(name, statement);
    }

    private static ValidatableResponse call(String name) {
        return given().contentType(ContentType.JSON).body("{\"id\": 1}").when().post("/api/tools/" + name).then();
    }

    private void assertNotLoaded(String name, String statement, String reason) throws IOException {
        Files.writeString(FILE, tool(name, statement));

        DeclarativeTools.Reload reload = tools.reload();

        assertFalse(reload.applied());
        String expected = FILE + ":5: tools." + name + ".statement: the statement reads what the table policy refuses: "
                + reason;
        assertTrue(reload.problems().toString().contains(expected), reload.problems() + " should hold " + expected);
        call(name).statusCode(404);
    }

    @Test
    void aToolThatReadsAHiddenColumnIsNotLoaded() throws IOException {
        assertNotLoaded("contact_emails", "SELECT first_name, email FROM customer WHERE customer_id = :id",
                "Column customer.email is hidden");
        assertNotLoaded("contact_rows", "SELECT row_to_json(c)::text AS j FROM customer c WHERE customer_id = :id",
                "Columns customer.email, customer.phone are hidden");
    }

    @Test
    void aToolThatReadsADeniedTableIsNotLoaded() throws IOException {
        assertNotLoaded("ledger_notes_tool", "SELECT note FROM secret_ledger WHERE id = :id",
                "Table secret_ledger is not available");
        assertNotLoaded("ledger_table", "SELECT * FROM (TABLE secret_ledger) t WHERE id = :id",
                "Table secret_ledger is not available");
        // The view's plan scans the denied table and its inheritance child: both are named.
        assertNotLoaded("ledger_view_tool", "SELECT note FROM ledger_view WHERE id = :id",
                "Tables secret_ledger, secret_ledger_child are not available");
        assertNotLoaded("ledger_child_tool", "SELECT note FROM secret_ledger_child WHERE id = :id",
                "Table secret_ledger_child is not available");
    }

    @Test
    void whatOnlyThePlanOfACallCanTellIsRefusedAtThatCall() throws IOException {
        // Neither relation exists as the file loads, so their plans are left to each call.
        Files.writeString(FILE, tool("late_contact", "SELECT * FROM late_contacts WHERE customer_id = :id")
                + tool("late_note", "SELECT * FROM late_notes WHERE id = :id").replace("tools:\n", ""));
        DeclarativeTools.Reload reload = tools.reload();
        assertTrue(reload.applied(), reload.problems().toString());
        source().executeWriting("CREATE VIEW public.late_contacts AS SELECT customer_id, first_name, email FROM customer")
                .await().atMost(Duration.ofSeconds(10));
        source().executeWriting("CREATE VIEW public.late_notes AS SELECT id, note FROM public.secret_ledger")
                .await().atMost(Duration.ofSeconds(10));

        call("late_contact").statusCode(403).body("error", is("blocked"))
                .body("message", startsWith("Column customer.email is hidden"))
                .body(not(containsString("@")));
        call("late_note").statusCode(403).body("error", is("blocked"))
                .body("message", startsWith("Tables secret_ledger, secret_ledger_child are not available"))
                .body(not(containsString("TOPSECRET")));
    }

    @Test
    void aToolThatLeavesThePolicyAloneLoadsAndRuns() throws IOException {
        Files.writeString(FILE, tool("first_names", "SELECT first_name FROM customer WHERE customer_id = :id"));

        DeclarativeTools.Reload reload = tools.reload();

        assertTrue(reload.applied(), reload.problems().toString());
        call("first_names").statusCode(200).body("result.rows[0].first_name", is("Luís"));
    }
}
