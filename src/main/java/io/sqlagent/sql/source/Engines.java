package io.sqlagent.sql.source;

import java.util.Locale;

import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.mysql.MySqlEngine;
import io.sqlagent.sql.engine.postgres.PostgresEngine;

/**
 * The engines a source's URL may name, chosen by its scheme ({@link SourceUrls#engine}): {@code postgresql://}
 * PostgreSQL, {@code mysql://} MySQL, {@code mariadb://} MariaDB. One instance of each, shared by every source of it.
 */
public final class Engines {

    /** PostgreSQL's engine. */
    public static final PostgresEngine POSTGRESQL = new PostgresEngine();
    /** MySQL's engine. */
    public static final Engine MYSQL = MySqlEngine.mySql();
    /** MariaDB's engine. */
    public static final Engine MARIADB = MySqlEngine.mariaDb();

    private Engines() {
    }

    /**
     * The engine {@code url} names.
     *
     * @throws IllegalArgumentException as {@link SourceUrls#engine} does, for a URL that names none
     */
    public static Engine forUrl(String url) {
        return switch (SourceUrls.engine(url)) {
            case SourceUrls.MYSQL -> MYSQL;
            case SourceUrls.MARIADB -> MARIADB;
            default -> POSTGRESQL;
        };
    }

    /** The engine's name as people write it: PostgreSQL, MySQL, MariaDB. */
    public static String displayName(Engine engine) {
        return switch (engine.name()) {
            case SourceUrls.MYSQL -> "MySQL";
            case SourceUrls.MARIADB -> "MariaDB";
            case SourceUrls.POSTGRESQL -> "PostgreSQL";
            default -> engine.name();
        };
    }

    /** A server's version as readiness shows it, with the engine's name unless the version says it already. */
    static String withName(Engine engine, String version) {
        String name = displayName(engine);
        return version.toLowerCase(Locale.ROOT).contains(name.toLowerCase(Locale.ROOT)) ? version : name + " " + version;
    }
}
