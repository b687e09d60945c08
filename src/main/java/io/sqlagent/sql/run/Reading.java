package io.sqlagent.sql.run;

/**
 * How a result is read.
 *
 * @param maxRows rows kept at most; one more is read to know there were more
 * @param maxBatch rows one cursor read takes at most
 * @param maxResultChars about how many characters of JSON the kept rows may take; past it, reading stops
 * @param readOnly whether the statement is read-only (only those are rendered by PostgreSQL, see
 *        {@code PgResults})
 */
record Reading(int maxRows, int maxBatch, long maxResultChars, boolean readOnly) {
}
