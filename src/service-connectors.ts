import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { parseConfig } from '../connectors/config.js';
import { startConnectors } from '../connectors/engine.js';
import type { Config } from './config.js';
import type { JobDeps } from './jobs/submit/run-workflow.js';
import type { Cleanups } from './cleanups.js';

/** The folder connectors of EINVOICE_CONNECTORS: each route's watcher and the steps on their sources. */
export async function startConnectorsRole(
  config: Config,
  log: Logger,
  { configFile, jobs, temporalAddress }: { configFile: string; jobs: JobDeps; temporalAddress: string },
  cleanups: Cleanups,
): Promise<void> {
  const connectors = await startConnectors({
    config: parseConfig(readFileSync(configFile, 'utf8'), configFile),
    jobs,
    temporalAddress,
    namespace: config.temporal.namespace,
    activityQueue: config.connectors.taskQueue,
    log,
  });
  cleanups.push(() => connectors.stop());
}
