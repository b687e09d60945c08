package io.sqlagent.sql.guard;

import static io.sqlagent.sql.guard.GuardAssertions.assertAllowed;
import static io.sqlagent.sql.guard.GuardAssertions.assertRefused;

import org.junit.jupiter.api.Test;

/**
 * Credential and server-configuration catalogs stay closed whatever role the source connects as
 * (a superuser could read them), through every spelling of their names, and settings PostgreSQL
 * reserves for superusers cannot be read through current_setting.
 */
class SqlGuardServerSecretsTest {

    private static final String AUTHID = "Table pg_catalog.pg_authid is not available to the agent, whatever its "
            + "database role: it holds credentials (password hashes)";
    private static final String PRIMARY_CONNINFO = "Setting primary_conninfo is not available to the agent: "
            + "PostgreSQL shows it only to superusers, and it can hold passwords, keys or server paths";

    @Test
    void refusesThePasswordCatalogHoweverItIsSpelled() {
        assertRefused("SELECT rolname, rolpassword FROM pg_authid", AUTHID);
        assertRefused("SELECT * FROM pg_catalog.pg_authid", AUTHID);
        assertRefused("SELECT * FROM \"pg_authid\"", AUTHID);
        assertRefused("SELECT * FROM PG_CATALOG.\"pg_authid\"", AUTHID);
        assertRefused("SELECT * FROM Pg_AuthId a", AUTHID);
        assertRefused("SELECT * FROM chinook.pg_catalog.pg_authid", AUTHID);
        assertRefused("TABLE pg_authid", AUTHID);
        assertRefused("SELECT * FROM ONLY pg_authid", AUTHID);
        assertRefused("SELECT (SELECT rolpassword FROM /* x */ pg_authid LIMIT 1)", AUTHID);
        assertRefused("WITH r AS (SELECT * FROM pg_authid) SELECT * FROM r", AUTHID);
        assertRefused("SELECT 1 WHERE EXISTS (SELECT 1 FROM pg_authid WHERE rolpassword LIKE 'SCRAM%')", AUTHID);
        assertRefused("SELECT * FROM customer c JOIN LATERAL (SELECT rolpassword FROM pg_authid) p ON true", AUTHID);
        assertRefused("SELECT row_to_json(a) FROM pg_authid a", AUTHID);
        assertRefused("EXPLAIN SELECT * FROM pg_authid", AUTHID);
    }

    @Test
    void refusesEveryCredentialAndServerConfigurationCatalog() {
        String credentials = " is not available to the agent, whatever its database role: it holds credentials";
        String files = " is not available to the agent, whatever its database role: it shows the server's configuration files";
        assertRefused("SELECT usename, passwd FROM pg_shadow",
                "Table pg_catalog.pg_shadow" + credentials + " (password hashes)");
        assertRefused("SELECT umoptions FROM pg_user_mapping", "Table pg_catalog.pg_user_mapping" + credentials
                + " (user mapping options)");
        assertRefused("SELECT umoptions FROM pg_catalog.pg_user_mappings", "Table pg_catalog.pg_user_mappings" + credentials
                + " (user mapping options)");
        assertRefused("SELECT * FROM information_schema.user_mapping_options",
                "Table information_schema.user_mapping_options" + credentials + " (user mapping options)");
        assertRefused("SELECT * FROM information_schema._pg_user_mappings",
                "Table information_schema._pg_user_mappings" + credentials + " (user mapping options)");
        assertRefused("SELECT subconninfo FROM pg_subscription", "Table pg_catalog.pg_subscription" + credentials
                + " (subscription connection strings)");
        assertRefused("SELECT * FROM pg_hba_file_rules", "Table pg_catalog.pg_hba_file_rules" + files);
        assertRefused("SELECT * FROM pg_ident_file_mappings", "Table pg_catalog.pg_ident_file_mappings" + files);
        assertRefused("SELECT * FROM pg_file_settings", "Table pg_catalog.pg_file_settings" + files);
        assertRefused("SELECT name, setting FROM pg_settings", "Table pg_catalog.pg_settings is not available to the "
                + "agent, whatever its database role: it lists every server setting, and some hold passwords "
                + "(primary_conninfo); read one setting with current_setting('name')");
        assertRefused("SELECT data FROM pg_largeobject", "Table pg_catalog.pg_largeobject is not available to the "
                + "agent, whatever its database role: it holds the contents of large objects, past the table policy");
    }

    @Test
    void refusesTheFunctionsBehindTheseCatalogs() {
        String files = " is not allowed: it reads the server's files";
        assertRefused("SELECT * FROM pg_hba_file_rules()", "Function pg_hba_file_rules" + files);
        assertRefused("SELECT * FROM pg_catalog.pg_ident_file_mappings()", "Function pg_ident_file_mappings" + files);
        assertRefused("SELECT * FROM \"pg_show_all_file_settings\"()", "Function pg_show_all_file_settings" + files);
        assertRefused("SELECT pg_read_file('pg_hba.conf')", "Function pg_read_file" + files);
    }

    @Test
    void allowsTablesThatOnlyShareANameAndTheHarmlessCatalogs() {
        assertAllowed("SELECT * FROM public.pg_authid");
        assertAllowed("SELECT * FROM other.pg_settings");
        assertAllowed("SELECT rolname, rolsuper, rolpassword FROM pg_roles");
        assertAllowed("SELECT usename FROM pg_user");
        assertAllowed("SELECT 'pg_authid', $$ SELECT * FROM pg_shadow $$ /* pg_authid */");
        assertAllowed("SELECT relname FROM pg_class WHERE relname = 'pg_authid'");
    }

    @Test
    void refusesSettingsReservedForSuperusers() {
        assertRefused("SELECT current_setting('primary_conninfo')", PRIMARY_CONNINFO);
        assertRefused("SELECT pg_catalog.current_setting('Primary_Conninfo', true)", PRIMARY_CONNINFO);
        assertRefused("SELECT \"current_setting\"('ssl_passphrase_command')", "Setting ssl_passphrase_command is not "
                + "available to the agent: PostgreSQL shows it only to superusers, and it can hold passwords, keys or server paths");
    }

    @Test
    void readsASettingOnlyByAPlainLiteralName() {
        String literal = "current_setting needs the setting's name as a plain string literal, such as "
                + "current_setting('TimeZone') (at line 1, column 8)";
        assertRefused("SELECT current_setting(E'primary\\137conninfo')", literal);
        assertRefused("SELECT current_setting($$primary_conninfo$$)", literal);
        assertRefused("SELECT current_setting('primary_' || 'conninfo')", literal);
        assertRefused("SELECT current_setting(name) FROM (VALUES ('primary_conninfo')) s(name)", literal);
        assertAllowed("SELECT current_setting('TimeZone'), current_setting('server_version_num')::int, "
                + "current_setting('my.missing', true)");
    }
}
