package io.sqlagent.sql.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ColumnPolicyTest {

    private final ColumnPolicy policy = new ColumnPolicy(Optional.of(List.of("customer.Email", "*.phone", "hr.*.iban",
            "hr.payslip.amount")));

    @Test
    void withoutSettingsNothingIsHidden() {
        ColumnPolicy open = new ColumnPolicy(Optional.empty());

        assertFalse(open.restricts());
        assertEquals(Set.of(), open.hidden(List.of("public.customer"), List.of("email", "phone")));
    }

    @Test
    void tableColumnMeansSchemaPublicAndWildcardsMatchEveryTable() {
        assertTrue(policy.restricts());
        assertEquals(Set.of("email", "phone"),
                policy.hidden(List.of("public.customer"), List.of("customer_id", "email", "phone")));
        assertEquals(Set.of("phone"), policy.hidden(List.of("sales.customer"), List.of("email", "phone")));
        assertEquals(Set.of("iban", "amount"), policy.hidden(List.of("hr.payslip"), List.of("id", "iban", "amount")));
        assertEquals(Set.of("iban"), policy.hidden(List.of("hr.bonus"), List.of("iban", "amount")));
    }

    @Test
    void aPartitionHidesWhatItsParentTableHides() {
        assertEquals(Set.of(), policy.hidden(List.of("hr.payslip_2024"), List.of("amount")),
                "the partition's own name hides nothing");
        assertEquals(Set.of("amount"), policy.hidden(List.of("hr.payslip_2024", "hr.payslip"), List.of("id", "amount")));
    }

    @Test
    void namesAreMatchedIgnoringCase() {
        assertEquals(Set.of("EMAIL"), policy.hidden(List.of("PUBLIC.Customer"), List.of("EMAIL", "first_name")));
    }

    @Test
    void malformedEntriesAreRefusedWithTheFormsThatWork() {
        for (String entry : List.of("email", "customer.*", "*.customer.email", "a.b.c.d", "customer.", ".email",
                "public..email")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> new ColumnPolicy(Optional.of(List.of(entry))), entry);
            assertTrue(refused.getMessage().startsWith("sqlagent.sql.hidden-columns: '" + entry + "' is not table.column"),
                    refused.getMessage());
        }
    }
}
