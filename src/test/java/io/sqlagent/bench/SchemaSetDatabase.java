package io.sqlagent.bench;

/**
 * Creates one {@link SchemaSet} as a database of a running PostgreSQL, for benchmarks that run the packaged service
 * against it ({@code bench/service-index-memory.sh}): {@code SchemaSetDatabase JDBC_ADMIN_URL DATABASE SET [TABLES]}.
 * The admin URL names a database the user {@code postgres} may connect to without a password.
 */
public final class SchemaSetDatabase {

    private SchemaSetDatabase() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: SchemaSetDatabase JDBC_ADMIN_URL DATABASE SET [TABLES]");
            System.exit(2);
        }
        SchemaSet set = SchemaSet.named(args[2]);
        int tables = args.length > 3 ? Integer.parseInt(args[3]) : set.fullSize();
        SchemaSearchBench.createDatabase(args[0], args[1], set, tables);
        System.out.println(tables);
    }
}
