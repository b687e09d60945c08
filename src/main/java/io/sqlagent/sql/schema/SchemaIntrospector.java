package io.sqlagent.sql.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.SchemaReader;
import io.sqlagent.sql.source.Source;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Reads a source's schema from the PostgreSQL catalog: the tables, views, materialized views and
 * partitioned tables the connected role may read, and for one of them its columns, keys,
 * relationships (both directions) and comments. Another engine's source is read through its engine's
 * {@link io.sqlagent.sql.engine.SchemaReader} ({@link EngineCatalog}) into the same shapes, so the schema tools
 * answer alike on every engine.
 */
@ApplicationScoped
public class SchemaIntrospector {

    private static final String RELATIONS = """
            SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind, c.oid::int8 AS oid,
                   obj_description(c.oid, 'pg_class') AS description
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f')
              AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
              AND NOT c.relispartition
              AND has_table_privilege(c.oid, 'SELECT')
            ORDER BY n.nspname = 'public' DESC, n.nspname, c.relname""";

    /**
     * Every readable relation with its columns, their comments and the relations its foreign keys point at, in one
     * statement, so that a catalog of thousands of tables is read in one round trip.
     */
    private static final String CATALOG = """
            SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind, c.oid::int8 AS oid,
                   obj_description(c.oid, 'pg_class') AS description,
                   array(SELECT a.attname::text FROM pg_attribute a
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum) AS columns,
                   array(SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum) AS types,
                   array(SELECT coalesce(col_description(c.oid, a.attnum), '') FROM pg_attribute a
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum) AS column_descriptions,
                   array(SELECT DISTINCT tn.nspname || '.' || tc.relname FROM pg_constraint con
                         JOIN pg_class tc ON tc.oid = con.confrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace
                         WHERE con.conrelid = c.oid AND con.contype = 'f') AS references
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f')
              AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
              AND NOT c.relispartition
              AND has_table_privilege(c.oid, 'SELECT')
            ORDER BY n.nspname = 'public' DESC, n.nspname, c.relname""";

    private static final String COLUMNS = """
            SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
                   pg_get_expr(d.adbin, d.adrelid) AS default_value, col_description(a.attrelid, a.attnum) AS description,
                   EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)) AS primary_key
            FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE a.attrelid = $1::int8::oid AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum""";

    /** Single-column foreign keys out of ($1) and into ($1) the table. */
    private static final String FOREIGN_KEYS = """
            SELECT con.conrelid::int8 AS from_oid, fromc.relname AS from_table, fa.attname AS from_column,
                   con.confrelid::int8 AS to_oid, toc.relname AS to_table, ta.attname AS to_column
            FROM pg_constraint con
            JOIN pg_class fromc ON fromc.oid = con.conrelid
            JOIN pg_class toc ON toc.oid = con.confrelid
            JOIN pg_attribute fa ON fa.attrelid = con.conrelid AND fa.attnum = con.conkey[1]
            JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = con.confkey[1]
            WHERE con.contype = 'f' AND (con.conrelid = $1::int8::oid OR con.confrelid = $1::int8::oid)
            ORDER BY fromc.relname, fa.attname""";

    /**
     * A readable relation.
     *
     * @param oid PostgreSQL's oid; for another engine's source, the relation's position in its catalog (from 1)
     * @param own whether it is in the source's own schema ({@code public}, a MySQL URL's database), named bare there
     */
    public record Relation(String schema, String name, String kind, long oid, String description, boolean own) {

        /** A PostgreSQL relation: its own schema is {@code public}. */
        public Relation(String schema, String name, String kind, long oid, String description) {
            this(schema, name, kind, oid, description, schema.equals("public"));
        }

        /** The name the model should use: bare in the source's own schema, schema-qualified elsewhere. */
        public String displayName() {
            return own ? name : schema + "." + name;
        }

        /** The names the table policy and hidden columns know it by ({@link #policyNames(String, String, boolean)}). */
        public List<String> policyNames() {
            return policyNames(schema, name, own);
        }

        /**
         * The names the table policy and hidden columns know a relation by: {@code schema.name}, and {@code public.name}
         * when it is in the source's own schema that is not {@code public} (a MySQL URL's database), since an unqualified
         * policy entry ({@code customer}, {@code customer.email}) means a table there on every engine, as {@code run_sql}
         * reads it there ({@code run.EngineReadCheck}).
         */
        public static List<String> policyNames(String schema, String name, boolean own) {
            return own && !schema.equals("public") ? List.of(schema + "." + name, "public." + name)
                    : List.of(schema + "." + name);
        }
    }

    /** The readable relations, the source's own schema ({@code public}) first. */
    public Uni<List<Relation>> relations(Source source) {
        if (!source.isPostgres()) {
            return EngineCatalog.read(source).map(EngineCatalog::relations);
        }
        return source.requirePool().query(RELATIONS).execute().map(rows -> {
            List<Relation> relations = new ArrayList<>();
            for (Row row : rows) {
                relations.add(new Relation(row.getString("schema"), row.getString("name"), kindName(row.getString("kind")),
                        row.getLong("oid"), row.getString("description")));
            }
            return relations;
        });
    }

    /** A column as the catalog describes it; {@code description} is empty when it has no comment. */
    public record CatalogColumn(String name, String type, String description) {
    }

    /**
     * A relation with its columns and the relations ({@code schema.table}) its foreign keys reference.
     */
    public record CatalogTable(Relation relation, List<CatalogColumn> columns, List<String> references) {
    }

    /** Every readable relation with its columns, {@code public} first, read in one statement. */
    public Uni<List<CatalogTable>> catalog(Source source) {
        if (!source.isPostgres()) {
            return EngineCatalog.read(source).map(EngineCatalog::catalog);
        }
        return source.requirePool().query(CATALOG).execute().map(rows -> {
            List<CatalogTable> tables = new ArrayList<>();
            for (Row row : rows) {
                Relation relation = new Relation(row.getString("schema"), row.getString("name"),
                        kindName(row.getString("kind")), row.getLong("oid"), row.getString("description"));
                String[] names = row.getArrayOfStrings("columns");
                String[] types = row.getArrayOfStrings("types");
                String[] descriptions = row.getArrayOfStrings("column_descriptions");
                List<CatalogColumn> columns = new ArrayList<>(names.length);
                for (int i = 0; i < names.length; i++) {
                    columns.add(new CatalogColumn(names[i], types[i], descriptions[i]));
                }
                tables.add(new CatalogTable(relation, columns, List.of(row.getArrayOfStrings("references"))));
            }
            return tables;
        });
    }

    /**
     * The relation a name refers to: {@code table} or {@code schema.table}, matched as PostgreSQL would (case-insensitively
     * when unquoted).
     */
    public static Optional<Relation> find(List<Relation> relations, String name) {
        String wanted = name.trim();
        for (Relation relation : relations) {
            if (relation.displayName().equals(wanted) || (relation.schema() + "." + relation.name()).equals(wanted)) {
                return Optional.of(relation);
            }
        }
        for (Relation relation : relations) {
            if (relation.displayName().equalsIgnoreCase(wanted)
                    || (relation.schema() + "." + relation.name()).equalsIgnoreCase(wanted)) {
                return Optional.of(relation);
            }
        }
        return Optional.empty();
    }

    /** Columns of one relation in order, as the {@code introspect_schema} contract describes them. */
    public Uni<List<Map<String, Object>>> columns(Source source, Relation relation) {
        if (!source.isPostgres()) {
            return EngineCatalog.read(source).map(tables -> EngineCatalog.columns(tables, relation));
        }
        Pool pool = source.requirePool();
        Uni<List<ForeignKey>> keys = foreignKeys(pool, relation);
        return pool.preparedQuery(COLUMNS).execute(Tuple.of(relation.oid())).flatMap(rows -> keys.map(foreignKeys -> {
            List<Map<String, Object>> columns = new ArrayList<>();
            for (Row row : rows) {
                String column = row.getString("name");
                Optional<ForeignKey> outgoing = foreignKeys.stream()
                        .filter(k -> k.fromOid() == relation.oid() && k.fromColumn().equals(column)).findFirst();
                Map<String, Object> described = new LinkedHashMap<>();
                described.put("name", column);
                described.put("type", row.getString("type"));
                described.put("nullable", row.getBoolean("nullable"));
                described.put("primary_key", row.getBoolean("primary_key"));
                described.put("foreign_key", outgoing.isPresent());
                described.put("references", outgoing.map(k -> k.toTable() + "." + k.toColumn()).orElse(null));
                described.put("default", row.getString("default_value"));
                described.put("description", row.getString("description"));
                columns.add(described);
            }
            return columns;
        }));
    }

    /**
     * Relationships in both directions: {@code belongsTo} for this table's foreign keys, {@code hasMany} for keys pointing at
     * it.
     */
    public Uni<List<Map<String, Object>>> relationships(Source source, Relation relation) {
        if (!source.isPostgres()) {
            return EngineCatalog.read(source).map(tables -> EngineCatalog.relationships(tables, relation));
        }
        return foreignKeys(source.requirePool(), relation).map(keys -> {
            List<Map<String, Object>> relationships = new ArrayList<>();
            for (ForeignKey key : keys) {
                Map<String, Object> described = new LinkedHashMap<>();
                if (key.fromOid() == relation.oid()) {
                    described.put("type", "belongsTo");
                    described.put("related_table", key.toTable());
                    described.put("foreign_key", key.fromColumn());
                    described.put("local_key", key.toColumn());
                } else {
                    described.put("type", "hasMany");
                    described.put("related_table", key.fromTable());
                    described.put("foreign_key", key.fromColumn());
                    described.put("local_key", key.toColumn());
                }
                relationships.add(described);
            }
            return relationships;
        });
    }

    /**
     * The values the columns of {@code catalog} declare ({@code enum} and {@code set} definitions of a MySQL or MariaDB
     * source), by {@code schema.table} then column; PostgreSQL's come from its statistics instead.
     */
    public static Map<String, Map<String, List<String>>> declaredValues(List<CatalogTable> catalog) {
        return EngineCatalog.declaredValues(catalog);
    }

    /** {@code relation} as its engine's {@link SchemaReader} names a table, for the statements it writes. */
    public static SchemaReader.Table table(Relation relation) {
        return new SchemaReader.Table(relation.schema(), relation.name(), relation.kind(), relation.own(),
                Optional.ofNullable(relation.description()), List.of(), List.of());
    }

    private record ForeignKey(long fromOid, String fromTable, String fromColumn, long toOid, String toTable, String toColumn) {
    }

    private static Uni<List<ForeignKey>> foreignKeys(Pool pool, Relation relation) {
        return pool.preparedQuery(FOREIGN_KEYS).execute(Tuple.of(relation.oid())).map(rows -> {
            List<ForeignKey> keys = new ArrayList<>();
            for (Row row : rows) {
                keys.add(new ForeignKey(row.getLong("from_oid"), row.getString("from_table"), row.getString("from_column"),
                        row.getLong("to_oid"), row.getString("to_table"), row.getString("to_column")));
            }
            return keys;
        });
    }

    private static String kindName(String relkind) {
        return switch (relkind) {
            case "v" -> "view";
            case "m" -> "materialized view";
            case "p" -> "partitioned table";
            case "f" -> "foreign table";
            default -> "table";
        };
    }
}
