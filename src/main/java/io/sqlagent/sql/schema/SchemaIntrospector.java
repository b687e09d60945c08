package io.sqlagent.sql.schema;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.SchemaReader;
import io.sqlagent.sql.run.SourceOutage;
import io.sqlagent.sql.source.Source;

/**
 * Reads a source's schema through its engine's {@link SchemaReader} ({@code Engine.schema()}), whatever the engine: the
 * tables and views the source's account may read, and for one of them its columns, keys, relationships (both
 * directions) and comments, in the shapes the schema tools answer with ({@link EngineCatalog}), so they answer alike on
 * every engine. A source whose server cannot be reached is refused as {@link SourceOutage} says, as a statement is.
 */
@ApplicationScoped
public class SchemaIntrospector {

    /**
     * A readable relation.
     *
     * @param kind {@code table}, {@code view}, or the engine's other kinds ({@code materialized view}, …)
     * @param description its comment, null when it has none
     * @param own whether it is in the source's own schema ({@code public}, a MySQL URL's database), named bare there
     */
    public record Relation(String schema, String name, String kind, String description, boolean own) {

        /** A relation of a PostgreSQL source: its own schema is {@code public}. */
        public Relation(String schema, String name, String kind, String description) {
            this(schema, name, kind, description, schema.equals("public"));
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
        return SourceOutage.refusedWhenOut(source,
                source.withConnection(client -> reader(source).tables(client)).map(EngineCatalog::relations));
    }

    /** A column as the catalog describes it; {@code description} is empty when it has no comment. */
    public record CatalogColumn(String name, String type, String description) {
    }

    /**
     * A relation with its columns and the relations ({@code schema.table}) its foreign keys reference.
     *
     * @param extended the relations a foreign key references through this relation's primary key, when that is one
     *        column: a subtype's table
     *        ({@code salesperson} extends {@code employee}, which extends {@code person}), one row per row of the
     *        extended table, which holds what the subtype's rows have in common (their names)
     */
    public record CatalogTable(Relation relation, List<CatalogColumn> columns, List<String> references,
            List<String> extended) {

        /** A relation that extends none. */
        public CatalogTable(Relation relation, List<CatalogColumn> columns, List<String> references) {
            this(relation, columns, references, List.of());
        }
    }

    /** Every readable relation with its columns, {@code public} first, read in one catalog read. */
    public Uni<List<CatalogTable>> catalog(Source source) {
        return SourceOutage.refusedWhenOut(source,
                source.withConnection(client -> reader(source).catalog(client)).map(EngineCatalog::catalog));
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
        return SourceOutage.refusedWhenOut(source,
                source.withConnection(client -> reader(source).table(client, table(relation))).map(EngineCatalog::columns));
    }

    /**
     * Relationships in both directions: {@code belongsTo} for this table's foreign keys, {@code hasMany} for keys pointing at
     * it, ordered by the referencing table and column.
     */
    public Uni<List<Map<String, Object>>> relationships(Source source, Relation relation) {
        return SourceOutage.refusedWhenOut(source, source.withConnection(client -> reader(source).keys(client, table(relation)))
                .map(keys -> EngineCatalog.relationships(keys, relation)));
    }

    private static SchemaReader reader(Source source) {
        return source.engine().schema();
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
}
