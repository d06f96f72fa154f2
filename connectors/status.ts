import type { Storage } from '../src/storage/index.js';
import type { ConnectorConfig } from './config.js';
import type { ConnectorOperation } from './operations.js';
import { nameFilter } from './readiness.js';
import type { FolderSource } from './sources/source.js';
import { isTemporaryName } from './sources/temporary-names.js';

/** A connector route at a glance: for `connectors status` and /health. */
export interface RouteStatus {
  route: string;
  operation?: ConnectorOperation;
  /** Files in the watched folder not yet taken; -1 while the source cannot be reached. */
  waiting: number;
  /** Taken and not finished. */
  processing: number;
  processed: number;
  refused: number;
  /** When the route's watcher last looked (/health). */
  lastLookAt?: string;
  /** Why its source cannot be reached, as the failing look says (/health). */
  problem?: string;
}

/**
 * Each route at a glance, for /health and `connectors status`: what waits in its folder (asked
 * of the source now) and what the ledger says was taken, processed and refused. The running
 * engine and the CLI share it, so both count alike.
 */
export async function routeStatus(
  config: ConnectorConfig,
  sources: ReadonlyMap<string, FolderSource>,
  storage: Pick<Storage, 'connectorFiles'>,
): Promise<RouteStatus[]> {
  const counts = await storage.connectorFiles.counts();
  return Promise.all(
    config.routes.map(async (route) => {
      const c = counts.get(route.name) ?? { processing: 0, done: 0, refused: 0, failed: 0 };
      const accepts = nameFilter(route.files);
      // -1: the source cannot be reached right now, or (in the CLI) not even opened, a secret missing.
      const source = sources.get(route.source);
      const waiting = source
        ? await source
            .list(route.folder)
            .then((entries) => entries.filter((e) => !isTemporaryName(e.name) && accepts(e.name)).length)
            .catch(() => -1)
        : -1;
      return {
        route: route.name,
        operation: route.operation,
        waiting,
        processing: c.processing,
        processed: c.done,
        refused: c.refused + c.failed,
      };
    }),
  );
}
