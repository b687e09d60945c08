package io.sqlagent.sql.guard;

import java.util.Optional;
import java.util.Set;

/**
 * What the guard decided about one piece of SQL: whether it may run and, when it may not, one
 * sentence the model can act on; also what the statement reads, for auditing and for the model.
 *
 * @param allowed whether the statement may run
 * @param reason why it was refused; {@code null} when allowed
 * @param kind the kind of statement, when the guard got far enough to know it
 * @param tables every table or view referenced, as PostgreSQL would resolve the spelling
 *        ({@code schema.table} or {@code table}), without names defined by {@code WITH}
 * @param functions every function called, lower-cased and without schema
 */
public record SqlVerdict(boolean allowed, String reason, Optional<StatementKind> kind, Set<String> tables,
        Set<String> functions) {

    public SqlVerdict {
        kind = kind == null ? Optional.empty() : kind;
        tables = tables == null ? Set.of() : Set.copyOf(tables);
        functions = functions == null ? Set.of() : Set.copyOf(functions);
    }

    /** A statement that may run. */
    public static SqlVerdict allow(StatementKind kind, Set<String> tables, Set<String> functions) {
        return new SqlVerdict(true, null, Optional.of(kind), tables, functions);
    }

    /** A refusal before the guard knew what the statement reads. */
    public static SqlVerdict refuse(String reason) {
        return new SqlVerdict(false, reason, Optional.empty(), Set.of(), Set.of());
    }

    /** A refusal of a statement the guard understood; what it reads is kept for the audit log. */
    public static SqlVerdict refuse(String reason, StatementKind kind, Set<String> tables, Set<String> functions) {
        return new SqlVerdict(false, reason, Optional.ofNullable(kind), tables, functions);
    }
}
