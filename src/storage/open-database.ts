import type { Config } from '../config.js';
import { openPostgres, openSqlite, sqlitePath, type Database } from './database.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';

/** Opens the database chosen by the configuration and brings its schema up to date. */
export async function openDatabase(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Database> {
  const db = config.databaseUrl ? openPostgres(config.databaseUrl) : openSqlite(sqlitePath(config.dataDir));
  try {
    await migrate(db, MIGRATIONS);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
