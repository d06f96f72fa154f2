import type { Database } from './database.js';

export interface Migration {
  /** Applied in ascending order; each version at most once per database. */
  version: number;
  name: string;
  /** Run one by one (the SQLite driver prepares one statement at a time). */
  statements: readonly string[];
}

const LOCK_NAME = 'einvoice:schema_migrations';

/**
 * Applies the migrations not yet recorded in `schema_migrations`, all in one transaction, and
 * returns the versions it applied. Two processes starting at once are serialised by the lock
 * (PostgreSQL advisory lock; SQLite's BEGIN IMMEDIATE write lock): the second one waits,
 * then sees everything applied and does nothing.
 */
export async function migrate(db: Database, migrations: readonly Migration[]): Promise<number[]> {
  const pending = sortedMigrations(migrations);
  return db.transaction(async (tx) => {
    await tx.lock(LOCK_NAME);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at BIGINT NOT NULL
      )`,
    );
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const versions: number[] = [];
    for (const migration of pending.filter((m) => !applied.has(m.version))) {
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
      versions.push(migration.version);
    }
    return versions;
  });
}

function sortedMigrations(migrations: readonly Migration[]): Migration[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (!Number.isInteger(m.version) || m.version < 1 || m.version === sorted[i - 1]?.version) {
      throw new Error(`Invalid migration list: version ${m.version} (${m.name}) is not a unique positive integer`);
    }
  });
  return sorted;
}
