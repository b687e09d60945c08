package io.sqlagent.sql.guard;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.sqlagent.MessageText;

/**
 * The relations and settings of PostgreSQL that hold credentials or the server's own configuration,
 * closed to the agent whatever its role may read. A role without special privileges cannot read
 * them anyway; a superuser (which people do connect as) can, so the guard closes them itself: by
 * name in the statement's syntax tree, and again in its tokens, so no spelling, quoting or nesting
 * of the name gets through.
 */
final class ServerSecrets {

    private static final String CREDENTIALS = "it holds credentials";
    private static final String SERVER_FILES = "it shows the server's configuration files";

    /** Closed relations, schema-qualified, with the reason the model is told. */
    private static final Map<String, String> RELATIONS = Map.ofEntries(
            Map.entry("pg_catalog.pg_authid", CREDENTIALS + " (password hashes)"),
            Map.entry("pg_catalog.pg_shadow", CREDENTIALS + " (password hashes)"),
            Map.entry("pg_catalog.pg_user_mapping", CREDENTIALS + " (user mapping options)"),
            Map.entry("pg_catalog.pg_user_mappings", CREDENTIALS + " (user mapping options)"),
            Map.entry("information_schema._pg_user_mappings", CREDENTIALS + " (user mapping options)"),
            Map.entry("information_schema.user_mapping_options", CREDENTIALS + " (user mapping options)"),
            Map.entry("pg_catalog.pg_subscription", CREDENTIALS + " (subscription connection strings)"),
            Map.entry("pg_catalog.pg_hba_file_rules", SERVER_FILES),
            Map.entry("pg_catalog.pg_ident_file_mappings", SERVER_FILES),
            Map.entry("pg_catalog.pg_file_settings", SERVER_FILES),
            Map.entry("pg_catalog.pg_settings", "it lists every server setting, and some hold passwords "
                    + "(primary_conninfo); read one setting with current_setting('name')"),
            Map.entry("pg_catalog.pg_largeobject", "it holds the contents of large objects, past the table policy"));

    /**
     * The settings PostgreSQL 18 shows only to superusers and members of {@code pg_read_all_settings}:
     * connection strings with passwords, key files and commands, server paths.
     */
    private static final Set<String> RESERVED_SETTINGS = Set.of("config_file", "data_directory",
            "dynamic_library_path", "extension_control_path", "external_pid_file", "hba_file", "ident_file",
            "jit_provider", "krb_server_keyfile", "log_directory", "log_filename", "oauth_validator_libraries",
            "primary_conninfo", "session_preload_libraries", "shared_preload_libraries", "ssl_ciphers",
            "ssl_dh_params_file", "ssl_groups", "ssl_max_protocol_version", "ssl_min_protocol_version",
            "ssl_passphrase_command", "ssl_tls13_ciphers", "unix_socket_directories");

    private ServerSecrets() {
    }

    /** The refusal for the first closed relation among {@code tables} (as the inspection names them). */
    static Optional<String> closedTable(Set<String> tables) {
        for (String table : tables) {
            Optional<String> refusal = refusal(table);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        return Optional.empty();
    }

    /**
     * A closed relation named anywhere in the tokens from code token {@code from} on, unqualified or
     * qualified by its own schema: a second net under the syntax tree, for places JSqlParser keeps a
     * name in a form the inspection does not reach. A column or alias spelled like one of these names
     * is refused too, which is rare and harmless.
     */
    static Optional<String> closedName(LexedSql lexed, int from) {
        List<PgToken> code = lexed.code();
        for (int i = from; i < code.size(); i++) {
            PgToken token = code.get(i);
            if (!isName(token)) {
                continue;
            }
            String name = Identifiers.fold(token.text(lexed.sql()));
            boolean qualified = i >= from + 2 && isDot(lexed, code.get(i - 1)) && isName(code.get(i - 2));
            String table = qualified ? Identifiers.fold(code.get(i - 2).text(lexed.sql())) + "." + name : name;
            Optional<String> refusal = refusal(table);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        return Optional.empty();
    }

    /**
     * {@code current_setting} called with anything but a plain literal naming a setting any role may
     * read: the name must be visible to the guard to be checked, and PostgreSQL's reserved settings
     * (passwords in {@code primary_conninfo}, key commands, paths) stay closed.
     */
    static Optional<String> reservedSetting(LexedSql lexed, int from) {
        List<PgToken> code = lexed.code();
        String sql = lexed.sql();
        for (int i = from; i + 1 < code.size(); i++) {
            PgToken token = code.get(i);
            if (!isName(token) || !Identifiers.fold(token.text(sql)).equals("current_setting")
                    || !isPunctuation(lexed, code.get(i + 1), '(')) {
                continue;
            }
            PgToken argument = i + 2 < code.size() ? code.get(i + 2) : null;
            PgToken after = i + 3 < code.size() ? code.get(i + 3) : null;
            if (argument == null || argument.kind() != PgToken.Kind.STRING || sql.charAt(argument.start()) != '\''
                    || after == null || !(isPunctuation(lexed, after, ')') || isPunctuation(lexed, after, ','))) {
                return Optional.of("current_setting needs the setting's name as a plain string literal, "
                        + "such as current_setting('TimeZone') (at " + MessageText.lineAndColumn(sql, token.start()) + ")");
            }
            String text = argument.text(sql);
            String setting = text.substring(1, text.length() - 1).replace("''", "'").toLowerCase(Locale.ROOT);
            if (RESERVED_SETTINGS.contains(setting)) {
                return Optional.of("Setting " + setting + " is not available to the agent: PostgreSQL shows it only "
                        + "to superusers, and it can hold passwords, keys or server paths");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> refusal(String table) {
        String qualified = table.contains(".") ? table
                // Unqualified, a pg_ name means the catalog: PostgreSQL searches pg_catalog first.
                : table.startsWith("pg_") ? "pg_catalog." + table : "public." + table;
        String reason = RELATIONS.get(qualified.toLowerCase(Locale.ROOT));
        return reason == null ? Optional.empty()
                : Optional.of("Table " + qualified + " is not available to the agent, whatever its database role: " + reason);
    }

    private static boolean isName(PgToken token) {
        return token.kind() == PgToken.Kind.WORD || token.kind() == PgToken.Kind.QUOTED_IDENTIFIER;
    }

    private static boolean isDot(LexedSql lexed, PgToken token) {
        return isPunctuation(lexed, token, '.');
    }

    private static boolean isPunctuation(LexedSql lexed, PgToken token, char c) {
        return token.kind() == PgToken.Kind.PUNCTUATION && lexed.sql().charAt(token.start()) == c;
    }
}
