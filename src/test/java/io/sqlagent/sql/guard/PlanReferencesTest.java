package io.sqlagent.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;

/**
 * Reading PostgreSQL's plan JSON. The plans below are what PostgreSQL printed for
 * {@code EXPLAIN (VERBOSE, FORMAT JSON)} of the query in each comment (costs left out).
 */
class PlanReferencesTest {

    private static JsonNode json(String text) throws Exception {
        return SnakeCaseJson.MAPPER.readTree(text);
    }

    @Test
    void aJoinReadsWhatItsConditionsAndOutputNameNotTheWholeRowsItsScansOffer() throws Exception {
        // SELECT c.first_name, e.last_name FROM customer c JOIN employee e ON e.employee_id = c.support_rep_id
        PlanReferences plan = PlanReferences.of(json("""
                [{"Plan": {"Node Type": "Hash Join", "Join Type": "Inner", "Output": ["c.first_name", "e.last_name"],
                  "Hash Cond": "(c.support_rep_id = e.employee_id)",
                  "Plans": [
                    {"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Relation Name": "customer", "Schema": "public",
                     "Alias": "c", "Output": ["c.customer_id", "c.first_name", "c.email", "c.phone", "c.support_rep_id"]},
                    {"Node Type": "Hash", "Parent Relationship": "Inner", "Output": ["e.last_name", "e.employee_id"],
                     "Plans": [{"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Relation Name": "employee",
                                "Schema": "public", "Alias": "e", "Output": ["e.last_name", "e.employee_id"]}]}]}}]"""));

        assertEquals(
                List.of(new PlanReferences.Scan("public", "customer", "c"), new PlanReferences.Scan("public", "employee", "e")),
                plan.scans());
        assertEquals(Set.of("first_name", "support_rep_id"), plan.columnsOf("c"));
        assertEquals(Set.of("last_name", "employee_id"), plan.columnsOf("e"));
        assertFalse(plan.readsWholeRow("c"));
    }

    @Test
    void aFilterCountsAndASingleTablesUnqualifiedOutputToo() throws Exception {
        // SELECT first_name FROM customer c WHERE c.first_name::text = 'x' AND email IS NOT NULL
        PlanReferences plan = PlanReferences.of(json("""
                [{"Plan": {"Node Type": "Seq Scan", "Relation Name": "customer", "Schema": "public", "Alias": "c",
                  "Output": ["first_name"], "Filter": "((c.email IS NOT NULL) AND (c.first_name = 'x'::text))"}}]"""));

        assertTrue(plan.columnsOf("c").containsAll(Set.of("first_name", "email")), plan.columnsOf("c").toString());
    }

    @Test
    void whatASubqueryOrSubPlanReturnsIsRead() throws Exception {
        // SELECT count(*) FROM (SELECT email FROM customer INTERSECT SELECT 'a') s
        PlanReferences plan = PlanReferences.of(
                json("""
                        [{"Plan": {"Node Type": "Aggregate", "Output": ["count(*)"], "Plans": [
                          {"Node Type": "Subquery Scan", "Parent Relationship": "Outer", "Alias": "s", "Output": ["s.email"], "Plans": [
                            {"Node Type": "SetOp", "Parent Relationship": "Subquery", "Output": ["('a'::text)", "(1)"], "Plans": [
                              {"Node Type": "Append", "Parent Relationship": "Outer", "Plans": [
                                {"Node Type": "Subquery Scan", "Parent Relationship": "Member", "Alias": "*SELECT* 2", "Output": ["'a'::text", "1"],
                                 "Plans": [{"Node Type": "Result", "Parent Relationship": "Subquery", "Output": ["'a'::text"]}]},
                                {"Node Type": "Subquery Scan", "Parent Relationship": "Member", "Alias": "*SELECT* 1",
                                 "Output": ["\\"*SELECT* 1\\".email", "0"],
                                 "Plans": [{"Node Type": "Seq Scan", "Parent Relationship": "Subquery", "Relation Name": "customer",
                                            "Schema": "public", "Alias": "customer", "Output": ["customer.email"]}]}]}]}]}]}}]"""));

        assertTrue(plan.columnsOf("customer").contains("email"), plan.columnsOf("customer").toString());
        assertEquals(Set.of("email"), plan.columnsOf("*SELECT* 1"));
    }

    @Test
    void wholeRowsQuotedNamesAndFieldSelectionAreRead() {
        ObjectNode scan = SnakeCaseJson.MAPPER.createObjectNode().put("Node Type", "Seq Scan").put("Relation Name", "Odd Table")
                .put("Schema", "public").put("Alias", "Odd Table");
        scan.putArray("Output").add("row_to_json(\"Odd Table\".*)").add("\"Odd Table\".\"Mixed\"\"Case\"")
                .add("(\"Odd Table\".addr).street");
        ArrayNode root = SnakeCaseJson.MAPPER.createArrayNode();
        root.addObject().set("Plan", scan);

        PlanReferences plan = PlanReferences.of(root);

        assertTrue(plan.readsWholeRow("Odd Table"));
        assertTrue(plan.columnsOf("Odd Table").containsAll(Set.of("Mixed\"Case", "addr")),
                plan.columnsOf("Odd Table").toString());
        assertFalse(plan.columnsOf("Odd Table").contains("street"), "a field of a composite column is not a column");
        assertFalse(plan.columnsOf("Odd Table").contains("row_to_json"), "a function is not a column");
    }

    @Test
    void textInsideStringConstantsIsNotAReference() throws Exception {
        PlanReferences plan = PlanReferences.of(
                json("""
                        [{"Plan": {"Node Type": "Hash Join", "Output": ["'c.email'::text", "c.first_name", "'c.*'::text", "e.last_name"],
                          "Plans": [{"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Relation Name": "customer", "Schema": "public",
                                     "Alias": "c", "Output": ["c.email"]},
                                    {"Node Type": "Seq Scan", "Parent Relationship": "Inner", "Relation Name": "employee", "Schema": "public",
                                     "Alias": "e", "Output": ["e.last_name"]}]}}]"""));

        assertEquals(Set.of("first_name"), plan.columnsOf("c"));
        assertFalse(plan.readsWholeRow("c"));
    }

    @Test
    void anExpressionThatCannotBeReadIsAnErrorNotASilentPass() throws Exception {
        JsonNode broken = json("""
                [{"Plan": {"Node Type": "Seq Scan", "Relation Name": "customer", "Schema": "public", "Alias": "c",
                  "Filter": "(c.email = 'unterminated)"}}]""");

        assertThrows(IllegalArgumentException.class, () -> PlanReferences.of(broken));
    }
}
