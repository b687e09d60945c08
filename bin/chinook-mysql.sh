#!/usr/bin/env bash
# Writes the Chinook database (version 1.4.5, by Luis Rocha, MIT licence: src/main/resources/db/chinook/
# CHINOOK-LICENSE.md, to be kept with every copy) as a MySQL/MariaDB script, from the PostgreSQL script the service
# ships, so a MySQL or MariaDB source holds the same tables and data under the same names as the embedded demo and
# the shipped declared tools, knowledge and evaluation hold on it. The script is portable but for three things: the
# database is made here (utf8mb4) instead of by psql's \c; TIMESTAMP columns become DATETIME (MySQL's TIMESTAMP is an
# instant in the session's time zone, with automatic defaults); backslashes in strings are plain characters, as in
# PostgreSQL (NO_BACKSLASH_ESCAPES, for this script's session only). The tests load Chinook into MariaDB with it.
#
#   bin/chinook-mysql.sh | mariadb --default-character-set=utf8mb4 -u root -p     # or: mysql
#   bin/chinook-mysql.sh other.sql > chinook-mysql.sql
#
# Then give the service's account read access: GRANT SELECT, SHOW VIEW ON chinook.* TO 'agent'@'%';
set -euo pipefail

source_script="${1:-$(cd "$(dirname "$0")/.." && pwd)/src/main/resources/db/chinook/chinook-postgres.sql}"
if [ ! -f "$source_script" ]; then
    echo "chinook-mysql.sh: no PostgreSQL Chinook script at $source_script" >&2
    exit 2
fi
cat <<'HEAD'
-- Chinook Database 1.4.5, Copyright (c) 2008-2024 Luis Rocha, MIT licence (CHINOOK-LICENSE.md):
-- the PostgreSQL script converted for MySQL/MariaDB by sqlagent's bin/chinook-mysql.sh.
SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES';
DROP DATABASE IF EXISTS chinook;
CREATE DATABASE chinook DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
USE chinook;
HEAD
sed -e '/^DROP DATABASE/d' -e '/^CREATE DATABASE/d' -e '/^\\c /d' -e 's/ TIMESTAMP/ DATETIME/g' "$source_script"
