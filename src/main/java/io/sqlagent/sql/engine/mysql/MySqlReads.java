package io.sqlagent.sql.engine.mysql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.StatementReads;
import io.sqlagent.sql.guard.LexException;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * What a statement reads on MySQL or MariaDB, from its text and the server's catalog rather than its plan: MariaDB's
 * {@code EXPLAIN FORMAT=JSON} lists no columns, leaves out tables it reads while optimising ({@code MAX(id)} is
 * "Select tables optimized away", a constant table's columns become their values), and names tables without their
 * database. So: the tables the statement check found, resolved in {@code information_schema} against the current
 * database; each view among them read through its stored definition (the server keeps it with every name qualified
 * and {@code *} expanded), down to the tables; the names the statement and those definitions hold, which bound the
 * columns read; and whether the statement reads columns it does not name ({@code *}, {@code t.*},
 * {@code NATURAL JOIN}). The answer is on the safe side: a name that is not a column still counts, a view whose
 * definition the account cannot see ({@code SHOW VIEW}) or that calls a stored function is marked unchecked.
 */
final class MySqlReads implements StatementReads {

    /** Views over views deeper than this are not followed (and so refused). */
    private static final int MAX_DEPTH = 16;

    // Words after which * is the select list's, not a multiplication.
    private static final Set<String> BEFORE_STAR = Set.of("select", "distinct", "distinctrow", "all", "high_priority",
            "straight_join", "sql_small_result", "sql_big_result", "sql_buffer_result", "sql_cache", "sql_no_cache",
            "sql_calc_found_rows");

    /** A name the statement or a definition names, its schema empty when unqualified (the current database). */
    private record Name(String schema, String name) {
    }

    @Override
    public Uni<Reads> of(SqlConnection connection, String sql, Set<String> tables) {
        Set<String> named = new TreeSet<>();
        Optional<String> wholeRows;
        try {
            List<MySqlToken> tokens = code(sql);
            named.addAll(names(sql, tokens));
            wholeRows = wholeRows(sql, tokens);
        } catch (LexException e) {
            // The statement check lexed it already; this cannot happen for a statement that passed it.
            return Uni.createFrom().failure(new IllegalArgumentException("The statement could not be read: " + e.getMessage()));
        }
        List<Name> first = new ArrayList<>();
        for (String table : tables) {
            int dot = table.indexOf('.');
            first.add(dot < 0 ? new Name("", table) : new Name(table.substring(0, dot), table.substring(dot + 1)));
        }
        Resolution resolution = new Resolution(named);
        return resolution.resolve(connection, first, Optional.empty(), 0)
                .flatMap(done -> resolution.columns(connection))
                .map(relations -> new Reads(resolution.defaultSchema, relations, Set.copyOf(named), wholeRows));
    }

    /** The lookups of one statement: relations found so far, level by level through views. */
    private static final class Resolution {

        private final Set<String> named;
        private final Map<String, Relation> relations = new LinkedHashMap<>();
        private final Set<String> views = new TreeSet<>();
        private String defaultSchema = "";

        Resolution(Set<String> named) {
            this.named = named;
        }

        Uni<Void> resolve(SqlConnection connection, List<Name> names, Optional<String> through, int depth) {
            if (names.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            return connection.preparedQuery(lookup(names.size())).execute(arguments(names))
                    .flatMap(rows -> next(connection, rows, through, depth));
        }

        private Uni<Void> next(SqlConnection connection, RowSet<Row> rows, Optional<String> through, int depth) {
            Map<String, List<Name>> inViews = new LinkedHashMap<>();
            for (Row row : rows) {
                defaultSchema = row.getString("current_schema") == null ? "" : row.getString("current_schema");
                String schema = row.getString("TABLE_SCHEMA");
                String name = row.getString("TABLE_NAME");
                String key = schema + "." + name;
                if (relations.containsKey(key)) {
                    continue;
                }
                boolean view = "VIEW".equals(row.getString("TABLE_TYPE"));
                Optional<String> unchecked = Optional.empty();
                if (view) {
                    views.add(key);
                    String definition = row.getString("VIEW_DEFINITION");
                    Optional<String> outer = Optional.of(through.orElse(key));
                    unchecked = definition == null || definition.isBlank()
                            ? Optional.of("its definition cannot be read by the source's account (it needs SHOW VIEW)")
                            : depth >= MAX_DEPTH ? Optional.of("it lies more than " + MAX_DEPTH + " views deep")
                                    : readDefinition(definition, inViews.computeIfAbsent(outer.get(), k -> new ArrayList<>()));
                }
                relations.put(key, new Relation(schema, name, List.of(), through, unchecked));
            }
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Map.Entry<String, List<Name>> view : inViews.entrySet()) {
                chain = chain.flatMap(done -> resolve(connection, view.getValue(), Optional.of(view.getKey()), depth + 1));
            }
            return chain;
        }

        /** Adds the names a view's definition holds, and the tables it reads to {@code tables}; why not, if it cannot. */
        private Optional<String> readDefinition(String definition, List<Name> tables) {
            List<MySqlToken> tokens;
            try {
                tokens = code(definition);
            } catch (LexException e) {
                return Optional.of("its definition could not be read");
            }
            named.addAll(names(definition, tokens));
            for (int i = 0; i + 1 < tokens.size(); i++) {
                // The server writes a stored function's name backticked (`f`(), `db`.`f`()), a built-in's bare (max()).
                if (tokens.get(i).kind() == MySqlToken.Kind.QUOTED_IDENTIFIER
                        && tokens.get(i + 1).isPunctuation(definition, '(')) {
                    boolean qualified = i >= 2 && tokens.get(i - 1).isPunctuation(definition, '.');
                    String function = (qualified ? ClosedRelations.fold(tokens.get(i - 2).text(definition)) + "." : "")
                            + ClosedRelations.fold(tokens.get(i).text(definition));
                    return Optional.of("it calls the stored function " + function + ", whose reads cannot be checked");
                }
            }
            for (int i = 0; i + 2 < tokens.size(); i++) {
                if (isName(tokens.get(i)) && tokens.get(i + 1).isPunctuation(definition, '.') && isName(tokens.get(i + 2))) {
                    String schema = ClosedRelations.fold(tokens.get(i).text(definition));
                    String name = ClosedRelations.fold(tokens.get(i + 2).text(definition));
                    // Every qualified pair may be a table (`db`.`t`) or a column of a derived table (`d`.`c`):
                    // looking up both is the safe side.
                    tables.add(new Name(schema, name));
                }
            }
            return Optional.empty();
        }

        /** The relations, each table with its columns. */
        Uni<List<Relation>> columns(SqlConnection connection) {
            List<Relation> tables = relations.values().stream().filter(relation -> relation.unchecked().isEmpty()
                    && !isView(relation)).toList();
            if (tables.isEmpty()) {
                return Uni.createFrom().item(List.copyOf(relations.values()));
            }
            StringBuilder sql = new StringBuilder(
                    "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS WHERE ");
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < tables.size(); i++) {
                sql.append(i == 0 ? "" : " OR ").append("(TABLE_SCHEMA = ? AND TABLE_NAME = ?)");
                values.add(tables.get(i).schema());
                values.add(tables.get(i).name());
            }
            sql.append(" ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION");
            return connection.preparedQuery(sql.toString()).execute(Tuple.from(values)).map(rows -> {
                Map<String, List<String>> columns = new LinkedHashMap<>();
                for (Row row : rows) {
                    columns.computeIfAbsent(row.getString("TABLE_SCHEMA") + "." + row.getString("TABLE_NAME"),
                            key -> new ArrayList<>()).add(row.getString("COLUMN_NAME"));
                }
                List<Relation> all = new ArrayList<>();
                relations.forEach((key, relation) -> all.add(new Relation(relation.schema(), relation.name(),
                        List.copyOf(columns.getOrDefault(key, List.of())), relation.through(), relation.unchecked())));
                return all;
            });
        }

        private boolean isView(Relation relation) {
            return views.contains(relation.schema() + "." + relation.name());
        }
    }

    /**
     * The tables and views among {@code count} names: compared case-blind (MySQL folds them on some systems and not on
     * others; the safe side is to take every match), an unqualified name in the current database.
     */
    private static String lookup(int count) {
        StringBuilder sql = new StringBuilder("""
                SELECT DATABASE() AS current_schema, t.TABLE_SCHEMA, t.TABLE_NAME, t.TABLE_TYPE, v.VIEW_DEFINITION
                FROM information_schema.TABLES t
                LEFT JOIN information_schema.VIEWS v ON v.TABLE_SCHEMA = t.TABLE_SCHEMA AND v.TABLE_NAME = t.TABLE_NAME
                WHERE""");
        for (int i = 0; i < count; i++) {
            sql.append(i == 0 ? " " : " OR ")
                    .append("(LOWER(t.TABLE_SCHEMA) = LOWER(COALESCE(?, DATABASE())) AND LOWER(t.TABLE_NAME) = ?)");
        }
        return sql.toString();
    }

    private static Tuple arguments(List<Name> names) {
        List<Object> values = new ArrayList<>();
        for (Name name : names) {
            values.add(name.schema().isEmpty() ? null : name.schema());
            values.add(name.name().toLowerCase(Locale.ROOT));
        }
        return Tuple.from(values);
    }

    private static List<MySqlToken> code(String sql) throws LexException {
        return MySqlLexer.lex(sql).stream().filter(token -> token.kind() != MySqlToken.Kind.COMMENT).toList();
    }

    private static boolean isName(MySqlToken token) {
        return token.kind() == MySqlToken.Kind.WORD || token.kind() == MySqlToken.Kind.QUOTED_IDENTIFIER;
    }

    /** Every word and quoted name, folded: keywords too, which is the safe side. */
    private static Set<String> names(String sql, List<MySqlToken> tokens) {
        Set<String> names = new TreeSet<>();
        for (MySqlToken token : tokens) {
            if (isName(token)) {
                names.add(ClosedRelations.fold(token.text(sql)));
            }
        }
        return names;
    }

    /**
     * What in the statement reads columns it does not name: a {@code *} that is not a multiplication nor
     * {@code COUNT(*)}'s, or {@code NATURAL} (a natural join compares the columns both sides have).
     */
    static Optional<String> wholeRows(String sql, List<MySqlToken> tokens) {
        for (int i = 0; i < tokens.size(); i++) {
            MySqlToken token = tokens.get(i);
            if (token.isWord(sql, "natural")) {
                return Optional.of("NATURAL JOIN");
            }
            if (token.kind() != MySqlToken.Kind.OPERATOR || sql.charAt(token.start()) != '*') {
                continue;
            }
            MySqlToken before = i > 0 ? tokens.get(i - 1) : null;
            MySqlToken after = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            if (before != null && before.isPunctuation(sql, '.')) {
                return Optional.of(tokens.get(Math.max(0, i - 2)).text(sql) + ".*");
            }
            if (before != null && before.isPunctuation(sql, '(') && after != null && after.isPunctuation(sql, ')')) {
                continue;
            }
            if (before != null && isOperand(sql, before)) {
                continue;
            }
            return Optional.of("*");
        }
        return Optional.empty();
    }

    private static boolean isOperand(String sql, MySqlToken token) {
        return switch (token.kind()) {
            case NUMBER, STRING, QUOTED_IDENTIFIER, USER_VARIABLE, SYSTEM_VARIABLE -> true;
            case WORD -> !BEFORE_STAR.contains(token.text(sql).toLowerCase(Locale.ROOT));
            case PUNCTUATION -> token.isPunctuation(sql, ')');
            default -> false;
        };
    }
}
