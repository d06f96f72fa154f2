import { Client, Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { Cleanups } from './cleanups.js';
import type { Config } from './config.js';
import { registry } from './metrics/metrics.js';
import { startMetricsServer } from './metrics/server.js';
import { openBlobStorage } from './storage/open-blob-storage.js';
import { openStorage } from './storage/index.js';
import { withRecentBlobs } from './storage/recent-blobs.js';
import { startDevServer, type DevServer } from './temporal/dev-server.js';
import { ensureNamespace } from './temporal/namespace.js';
import { connectNative } from './temporal/connect.js';
import { startApiRole } from './service-api.js';
import { startConnectorsRole } from './service-connectors.js';
import { startWorkerRole } from './service-worker.js';

export interface RunningService {
  /** Base URLs the API listens on (V1 host, and the V2 host when V2_PORT is set). */
  urls: string[];
  temporalAddress: string;
  temporalUiUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts what the configured role needs: a Temporal dev server unless
 * TEMPORAL_ADDRESS names a cluster, the worker, and the HTTP front end.
 * `stop()` undoes it in reverse order: no new requests, in-flight activities
 * finish, then the database and the dev server close.
 */
export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const cleanups: Cleanups = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => log.error({ err }, 'shutdown step failed'));
  };
  try {
    installTemporalRuntime(log, temporalMetricsAddress(config));
    await serveMetrics(config, log, cleanups);
    const devServer = config.temporal.address ? undefined : await startEmbeddedTemporal(config, log, cleanups);
    const temporalAddress = config.temporal.address ?? devServer!.address;
    const runsWorker = config.role === 'all' || config.role === 'worker';
    const connection = await connectTemporal(
      config,
      log,
      { address: temporalAddress, runsWorker, embedded: devServer !== undefined },
      cleanups,
    );

    const storage = await openStorage(config);
    cleanups.push(() => storage.close());
    const blobs = withRecentBlobs(openBlobStorage(config.blobs, config.dataDir));
    const temporal = new Client({ connection, namespace: config.temporal.namespace });
    const eagerStart = runsWorker
      ? await startWorkerRole(config, log, { connection: connection as NativeConnection, temporal, storage, blobs }, cleanups)
      : false;

    const jobs = {
      temporal,
      eagerStart,
      taskQueue: config.temporal.taskQueue,
      blobs,
      storage,
      limits: config.intakeLimits,
      maxWaitMs: config.workflowWaitMs,
    };
    if (config.connectors.configFile && (config.role === 'all' || config.role === 'connectors')) {
      await startConnectorsRole(config, log, { configFile: config.connectors.configFile, jobs, temporalAddress }, cleanups);
    }
    const urls =
      config.role === 'all' || config.role === 'api'
        ? await startApiRole(config, log, { jobs, devServerUiUrl: devServer?.uiUrl }, cleanups)
        : [];
    log.info(
      { urls, temporal: temporalAddress, temporalUi: devServer?.uiUrl, namespace: config.temporal.namespace, role: config.role },
      'service started',
    );
    return { urls, temporalAddress, temporalUiUrl: devServer?.uiUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The SDK's metrics describe workers: the API alone has none. */
function temporalMetricsAddress(config: Config): string | undefined {
  const { temporalPort } = config.metrics;
  const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
  return config.role !== 'api' && temporalPort !== undefined ? `${host}:${temporalPort}` : undefined;
}

async function serveMetrics(config: Config, log: Logger, cleanups: Cleanups): Promise<void> {
  if (config.metrics.port === undefined) return;
  const metricsServer = await startMetricsServer(registry, config.http.host, config.metrics.port);
  cleanups.push(() => metricsServer.close());
  log.info({ url: metricsServer.url }, 'metrics served');
}

async function startEmbeddedTemporal(config: Config, log: Logger, cleanups: Cleanups): Promise<DevServer> {
  const devServer = await startDevServer({
    cliPath: config.temporal.cliPath,
    dataDir: config.dataDir,
    namespace: config.temporal.namespace,
    port: config.temporal.devPort,
    uiPort: config.temporal.uiPort,
    log,
  });
  cleanups.push(() => devServer.stop());
  return devServer;
}

async function connectTemporal(
  config: Config,
  log: Logger,
  target: { address: string; runsWorker: boolean; embedded: boolean },
  cleanups: Cleanups,
): Promise<Connection | NativeConnection> {
  // A process that runs a worker shares one connection between client and worker, so a workflow
  // it starts can run its first task right here, handed over in the start call's answer (eager
  // start) instead of waiting for a poll through the server's matching service.
  const connection = target.runsWorker ? await connectNative(target.address, log) : await Connection.connect({ address: target.address });
  cleanups.push(() => connection.close());
  await ensureNamespace(connection, config.temporal.namespace).catch((err) => {
    // On a managed cluster the operator may have set the namespace up already and denied us the rights.
    if (target.embedded) throw err;
    log.warn({ err }, 'could not check namespace retention and search attributes; continuing');
  });
  return connection;
}

let runtimeInstalled = false;

/**
 * Temporal's core logs go through our logger; we, not the SDK, react to SIGTERM. With an
 * address, the SDK serves its worker metrics there (Prometheus, /metrics), durations in seconds
 * like ours.
 */
function installTemporalRuntime(log: Logger, metricsAddress: string | undefined): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    shutdownSignals: [],
    ...(metricsAddress
      ? { telemetryOptions: { metrics: { prometheus: { bindAddress: metricsAddress, useSecondsForDurations: true } } } }
      : {}),
    logger: new DefaultLogger('WARN', (entry) => {
      // The queues of the pdf, ocr and mail classes carry activities only: that they poll no workflow tasks is as planned.
      const planned = entry.message.startsWith('No workflows registered');
      const level = entry.level === 'ERROR' ? 'error' : entry.level === 'WARN' && !planned ? 'warn' : 'debug';
      log[level]({ temporal: entry.meta }, entry.message);
    }),
  });
}
