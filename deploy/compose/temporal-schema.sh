#!/bin/sh
# Temporal's two databases on PostgreSQL, created and brought to the schema of this admin-tools
# version (deploy/compose.yaml). Safe to run again, and after an upgrade of the images: existing
# databases and schemas are kept, only newer schema versions are applied.
# temporal-sql-tool reads the server from SQL_PLUGIN, SQL_HOST, SQL_PORT, SQL_USER, SQL_PASSWORD.
set -eu
schema="${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}"
for pair in "${DBNAME:-temporal}:temporal" "${VISIBILITY_DBNAME:-temporal_visibility}:visibility"; do
  db="${pair%%:*}"
  # create and setup-schema refuse what is there already: --quiet lets a repeated run pass them;
  # a server that cannot be reached still fails the update below.
  temporal-sql-tool --quiet --db "$db" create
  temporal-sql-tool --quiet --db "$db" setup-schema -v 0.0
  temporal-sql-tool --db "$db" update-schema -d "$schema/${pair#*:}/versioned"
done
echo "temporal-schema: databases and schema are current"
