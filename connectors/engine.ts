import { existsSync } from 'node:fs';
import path from 'node:path';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import { connectorActivities } from '../activities/connectors.js';
import { withHeartbeats } from '../activities/heartbeat.js';
import type { JobDeps } from '../src/jobs/submit/run-workflow.js';
import { OPERATION, ROUTE } from '../src/temporal/search-attributes.js';
import { createWorker } from '../src/temporal/worker.js';
import { lookNow, watchRoute } from '../workflows/watch-route.js';
import type { ConnectorConfig, RouteConfig } from './config.js';
import { segments } from './sources/paths.js';
import { watchRouteOperation } from './watch-operation.js';
import { openSource } from './sources/open.js';
import type { FolderSource } from './sources/source.js';

/**
 * The connectors as a running part of the service (EINVOICE_ROLE=connectors, or `all` with a
 * configuration): the sources opened, a worker that serves their activities on the connectors'
 * own queue, one durable watcher workflow per route, and for local folders a file-system watch
 * that asks the route's watcher to look at once instead of at its next interval.
 */

export interface ConnectorEngineOptions {
  config: ConnectorConfig;
  jobs: JobDeps & { temporal: Client };
  temporalAddress: string;
  namespace: string;
  /** The queue the source activities are served on. */
  activityQueue: string;
  log: Logger;
}

export interface ConnectorEngine {
  stop(): Promise<void>;
}

export const watcherId = (route: string) => `watch-${route}`;

/** Events of one burst (a copy of many files) are answered by one look. */
const SIGNAL_DEBOUNCE_MS = 300;

export async function startConnectors(opts: ConnectorEngineOptions): Promise<ConnectorEngine> {
  const { config, jobs, log } = opts;
  const sources = new Map<string, FolderSource>(Object.entries(config.sources).map(([name, c]) => [name, openSource(c)]));
  const { worker, connection } = await createWorker({
    address: opts.temporalAddress,
    namespace: opts.namespace,
    taskQueue: opts.activityQueue,
    activities: withHeartbeats(connectorActivities({ config, sources, jobs, log })),
    log,
  });
  const running = worker.run();
  for (const route of config.routes) await startWatcher(opts, route);
  const watchers = config.routes.flatMap((route) => localWatch(opts, route));
  log.info({ routes: config.routes.map((r) => r.name), queue: opts.activityQueue }, 'connectors started');
  return {
    async stop() {
      await Promise.all(watchers.map((w) => w.close()));
      worker.shutdown();
      await running;
      await connection.close();
      await Promise.all([...sources.values()].map((s) => s.close()));
    },
  };
}

/** Starts the route's watcher workflow unless it runs already (another replica, or an earlier start of this one). */
async function startWatcher(opts: ConnectorEngineOptions, route: RouteConfig): Promise<void> {
  try {
    await opts.jobs.temporal.workflow.start(watchRoute, {
      taskQueue: opts.jobs.taskQueue,
      workflowId: watcherId(route.name),
      args: [{ route: route.name, operation: route.operation, activityQueue: opts.activityQueue }],
      typedSearchAttributes: [
        { key: OPERATION, value: watchRouteOperation.name },
        { key: ROUTE, value: route.name },
      ],
      staticSummary: `Watches ${route.source}:${route.folder} for ${route.operation}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** How often a local route's folder that is not there (an unmounted share, a folder not made yet) is looked for. */
const FOLDER_CHECK_MS = 2_000;

/**
 * For a local folder: the moment a file arrives or changes, the route's watcher is asked to look.
 * A folder that is not there is waited for, never made: on an unmounted share it would be made on
 * the disk below the mount point.
 */
function localWatch(opts: ConnectorEngineOptions, route: RouteConfig): { close(): Promise<void> } | [] {
  const source = opts.config.sources[route.source]!;
  if (source.kind !== 'local') return [];
  const folder = path.join(path.resolve(source.root), ...segments(route.folder));
  let timer: NodeJS.Timeout | undefined;
  const ask = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      opts.jobs.temporal.workflow
        .getHandle(watcherId(route.name))
        .signal(lookNow)
        .catch((err: unknown) => opts.log.warn({ err, route: route.name }, 'could not ask the route watcher to look'));
    }, SIGNAL_DEBOUNCE_MS);
  };
  let watcher: FSWatcher | undefined;
  let waiting: NodeJS.Timeout | undefined;
  let closed = false;
  const attach = () => {
    if (closed || watcher || !existsSync(folder)) return;
    clearInterval(waiting);
    watcher = watch(folder, { ignoreInitial: true, depth: 0 });
    watcher
      .on('add', ask)
      .on('change', ask)
      .on('error', (err) => opts.log.warn({ err, route: route.name, folder }, 'folder watch failed'));
    // What arrived while the folder was away is there already: no event will tell of it.
    ask();
  };
  attach();
  if (!watcher) waiting = setInterval(attach, FOLDER_CHECK_MS);
  if (!watcher) opts.log.warn({ route: route.name, folder }, 'the route folder is not there (yet): waiting for it');
  return {
    async close() {
      closed = true;
      clearInterval(waiting);
      clearTimeout(timer);
      await watcher?.close();
    },
  };
}
