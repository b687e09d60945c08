package io.sqlagent.sql.guard;

import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The kinds of statement {@code run_sql} can be allowed to run; the names are what
 * {@code sqlagent.sql.allowed-statements} accepts.
 */
public enum StatementKind {

    /** A query: {@code SELECT}, {@code WITH … SELECT}, {@code TABLE t} and set operations over them. */
    SELECT,

    /** A bare {@code VALUES} list. */
    VALUES,

    /** A plain {@code EXPLAIN} of a query; {@code EXPLAIN ANALYZE} is never allowed. */
    EXPLAIN;

    /**
     * The kind named by {@code name}, ignoring case and surrounding blanks.
     *
     * @throws IllegalArgumentException if the name is none of the kinds; the message lists the valid names
     */
    public static StatementKind parse(String name) {
        String wanted = name == null ? "" : name.trim();
        for (StatementKind kind : values()) {
            if (kind.name().equalsIgnoreCase(wanted)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("Unknown statement kind '" + name + "'; valid kinds are "
                + Arrays.stream(values()).map(kind -> kind.name().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(", ")));
    }

    /** Every kind named in {@code names} (a configuration list), parsed with {@link #parse(String)}. */
    public static Set<StatementKind> parseAll(Collection<String> names) {
        Set<StatementKind> kinds = EnumSet.noneOf(StatementKind.class);
        for (String name : names) {
            kinds.add(parse(name));
        }
        return kinds;
    }
}
