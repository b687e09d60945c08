package io.sqlagent.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * A store statement written with named parameters ({@code :name}) run as the PostgreSQL client's numbered ones
 * ({@code $1}): the knowledge store's statements name a dozen values, which numbers would make easy to mix up. A
 * cast written {@code ::type} is left alone (a name needs a letter after a single colon).
 *
 * @param sql the statement with numbered parameters
 * @param names the name of each number, in order (a name used twice is bound twice)
 */
public record NamedSql(String sql, List<String> names) {

    private static final Pattern NAME = Pattern.compile("(?<!:):([a-zA-Z]\\w*)");

    /** {@code sql} with each {@code :name} replaced by the next {@code $n}. */
    public static NamedSql of(String sql) {
        List<String> names = new ArrayList<>();
        Matcher matcher = NAME.matcher(sql);
        StringBuilder numbered = new StringBuilder();
        while (matcher.find()) {
            names.add(matcher.group(1));
            matcher.appendReplacement(numbered, "\\$" + names.size());
        }
        matcher.appendTail(numbered);
        return new NamedSql(numbered.toString(), List.copyOf(names));
    }

    /** Runs the statement on {@code client} with {@code values} by name; a name without a value is bound as null. */
    public Uni<RowSet<Row>> execute(SqlClient client, Map<String, ?> values) {
        Tuple tuple = Tuple.tuple();
        for (String name : names) {
            tuple.addValue(values.get(name));
        }
        return client.preparedQuery(sql).execute(tuple);
    }
}
