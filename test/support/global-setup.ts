import type { TestProject } from 'vitest/node';
import { freePort, spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';

/**
 * Starts the real, built service twice, as operators run it: with the embedded
 * defaults (SQLite, its own Temporal dev server), and on PostgreSQL connected to
 * that same Temporal server through TEMPORAL_ADDRESS (its own task queue).
 */

export type ServiceHandle = Omit<SpawnedService, 'stop' | 'kill' | 'terminate' | 'start' | 'pid'> & { name: 'sqlite' | 'postgres' };

declare module 'vitest' {
  export interface ProvidedContext {
    services: ServiceHandle[];
  }
}

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests with scripts/test.sh, which starts a private PostgreSQL.');
  const namespace = 'einvoice-test';
  // The embedded set-up also serves its metrics (test/api/metrics.test.ts).
  const metrics = { METRICS_PORT: String(await freePort()), TEMPORAL_METRICS_PORT: String(await freePort()) };
  const sqlite = await spawnService({ name: 'sqlite', namespace, temporalPort: await freePort(), env: metrics });
  let postgres: SpawnedService | undefined;
  try {
    postgres = await spawnService({
      name: 'postgres',
      namespace,
      env: { DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: sqlite.temporalAddress },
    });
  } catch (err) {
    await sqlite.stop();
    throw err;
  }
  const strip = ({ stop: _stop, kill: _kill, terminate: _terminate, start: _start, pid: _pid, ...rest }: SpawnedService) =>
    rest as ServiceHandle;
  project.provide('services', [strip(sqlite), strip(postgres)]);
  // The borrower stops before the owner of the Temporal dev server.
  return async () => {
    await postgres!.stop();
    await sqlite.stop();
  };
}
