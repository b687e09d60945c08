package io.sqlagent.sql.engine;

import io.sqlagent.sql.guard.SqlVerdict;

/**
 * An engine's statement check: decides, in the engine's dialect, whether one piece of SQL may run and
 * says why not. PostgreSQL's is {@link io.sqlagent.sql.guard.SqlGuard#check(String)}; MySQL's and
 * MariaDB's is {@code io.sqlagent.sql.engine.mysql.MySqlGuard}. Never throws: what it cannot check it
 * refuses.
 */
@FunctionalInterface
public interface StatementCheck {

    /** The verdict on {@code sql}, written with every value in it (no placeholders). */
    SqlVerdict check(String sql);
}
