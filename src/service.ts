import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import { withHeartbeats } from '../activities/heartbeat.js';
import { OCR_ENGINES } from '../activities/analysis.js';
import { createActivities } from '../activities/index.js';
import { withBusinessMetrics } from '../activities/metrics.js';
import { createApp } from './api/app.js';
import { ApiError, ERROR_CODES, toEnvelope } from './api/errors.js';
import { allRoutes } from './api/routes/index.js';
import type { Services } from './api/services.js';
import { createAuthenticator } from './api/authenticate.js';
import type { Config } from './config.js';
import { loadSigningSecret } from './auth/signed-url.js';
import { cachedConnectorStatus } from './jobs/connector-status.js';
import { createMailTransport } from './mail/transport.js';
import { registry } from './metrics/metrics.js';
import { startMetricsServer } from './metrics/server.js';
import { ocrEngineName } from './reading/ocr-engine.js';
import { DEFAULT_SANDBOX_LIMITS } from './reading/sandbox.js';
import { sandboxLauncher } from './reading/sandbox-launcher.js';
import { configureVeraPdf, stopVeraPdf } from './pdf/verapdf.js';
import { openBlobStorage } from './storage/blob-storage.js';
import { openStorage } from './storage/index.js';
import { startDevServer, type DevServer } from './temporal/dev-server.js';
import { ensureNamespace } from './temporal/namespace.js';
import { ensureRetentionSchedule } from './temporal/schedules.js';
import { startWorkers } from './temporal/worker.js';
import { connectNative } from './temporal/connect.js';
import { withRecentBlobs } from './storage/recent-blobs.js';
import { warmUpValidation } from './validation/index.js';
import { stopSaxonHe, useSaxonHe } from './validation/schematron.js';
import { availableMemoryMb, planWorker } from './temporal/worker-plan.js';
import { removeOrphanedTempDirs } from './temp-dirs.js';
import { temporalUi } from './temporal/ui.js';
import { parseConfig } from '../connectors/config.js';
import { startConnectors, type ConnectorEngine } from '../connectors/engine.js';

export interface RunningService {
  /** Base URLs the API listens on (V1 host, and the V2 host when V2_PORT is set). */
  urls: string[];
  temporalAddress: string;
  temporalUiUrl: string | undefined;
  stop(): Promise<void>;
}

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Starts what the configured role needs: a Temporal dev server unless
 * TEMPORAL_ADDRESS names a cluster, the worker, and the HTTP front end.
 * `stop()` undoes it in reverse order: no new requests, in-flight activities
 * finish, then the database and the dev server close.
 */
export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => log.error({ err }, 'shutdown step failed'));
  };
  try {
    // The SDK's metrics describe workers: the API alone has none.
    const { temporalPort } = config.metrics;
    const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
    installTemporalRuntime(log, config.role !== 'api' && temporalPort !== undefined ? `${host}:${temporalPort}` : undefined);
    if (config.metrics.port !== undefined) {
      const metricsServer = await startMetricsServer(registry, config.http.host, config.metrics.port);
      cleanups.push(() => metricsServer.close());
      log.info({ url: metricsServer.url }, 'metrics served');
    }
    let devServer: DevServer | undefined;
    if (!config.temporal.address) {
      devServer = await startDevServer({
        cliPath: config.temporal.cliPath,
        dataDir: config.dataDir,
        namespace: config.temporal.namespace,
        port: config.temporal.devPort,
        uiPort: config.temporal.uiPort,
        log,
      });
      cleanups.push(() => devServer!.stop());
    }
    const temporalAddress = config.temporal.address ?? devServer!.address;

    const runsWorker = config.role === 'all' || config.role === 'worker';
    // A process that runs a worker shares one connection between client and worker, so a workflow
    // it starts can run its first task right here, handed over in the start call's answer (eager
    // start) instead of waiting for a poll through the server's matching service.
    const connection = runsWorker ? await connectNative(temporalAddress, log) : await Connection.connect({ address: temporalAddress });
    cleanups.push(() => connection.close());
    await ensureNamespace(connection, config.temporal.namespace).catch((err) => {
      // On a managed cluster the operator may have set the namespace up already and denied us the rights.
      if (devServer) throw err;
      log.warn({ err }, 'could not check namespace retention and search attributes; continuing');
    });

    const storage = await openStorage(config);
    cleanups.push(() => storage.close());
    const blobs = withRecentBlobs(openBlobStorage(config.blobs, config.dataDir));
    const temporal = new Client({ connection, namespace: config.temporal.namespace });

    let eagerStart = false;
    if (runsWorker) {
      // What killed predecessors left behind (their helpers' folders); folders of processes still running stay.
      const orphans = await removeOrphanedTempDirs();
      if (orphans.length) log.info({ removed: orphans.length }, 'removed temporary folders of processes that are gone');
      // The veraPDF processes start with the first check and end after the worker has finished its activities.
      await configureVeraPdf({ size: config.veraPdf.poolSize });
      cleanups.push(() => stopVeraPdf());
      // Once warm, Saxon-HE applies the official rules to an invoice in a few ms, SaxonJS in 40-70 ms of this event loop.
      if (config.schematronEngine === 'saxon-he') {
        if (useSaxonHe()) {
          cleanups.push(() => stopSaxonHe());
          warmUpValidation({ profiles: false });
        } else log.warn('Saxon-HE is not installed (scripts/setup-validators.sh): the official rules run in SaxonJS');
      }
      const plan = planWorker(config.temporal.taskQueue, config.worker, {
        memoryMb: availableMemoryMb(process.constrainedMemory(), os.totalmem()),
        ocrEngines: OCR_ENGINES,
        sandboxHeapMb: DEFAULT_SANDBOX_LIMITS.heapMb,
      });
      if (plan.ocr) {
        // The first document's sandbox child is forked now, not when it arrives; ended after the worker.
        sandboxLauncher.warmUp(DEFAULT_SANDBOX_LIMITS.heapMb);
        cleanups.push(async () => sandboxLauncher.close());
      }
      const workers = await startWorkers({
        connection: connection as NativeConnection,
        namespace: config.temporal.namespace,
        queues: plan.queues,
        activities: withHeartbeats(
          withBusinessMetrics(
            createActivities({
              blobs,
              storage,
              log,
              mail: { transport: await createMailTransport(config.mail), testFaults: config.mail.testFaults },
              ...(config.documentTime ? { documentTime: config.documentTime } : {}),
              ...(config.scanCertainty !== undefined ? { scanCertainty: config.scanCertainty } : {}),
            }),
          ),
        ),
      });
      cleanups.push(() => workers.stop());
      log.info(
        {
          queues: plan.queues.map((q) => `${q.taskQueue} (${q.maxActivities} at once)`),
          ocr: plan.ocr && { ...plan.ocr, engine: ocrEngineName() },
        },
        'worker polling',
      );
      // The retention workflow and its pass run on the workflows' queue: a process serving it sets the schedule up.
      eagerStart = plan.queues.some((q) => q.workflows);
      if (eagerStart) await ensureRetentionSchedule(temporal, config.temporal.taskQueue);
    }

    const jobs = {
      temporal,
      eagerStart,
      taskQueue: config.temporal.taskQueue,
      blobs,
      storage,
      limits: config.intakeLimits,
      maxWaitMs: config.workflowWaitMs,
    };
    let connectors: ConnectorEngine | undefined;
    if (config.connectors.configFile && (config.role === 'all' || config.role === 'connectors')) {
      const file = config.connectors.configFile;
      connectors = await startConnectors({
        config: parseConfig(readFileSync(file, 'utf8'), file),
        jobs,
        temporalAddress,
        namespace: config.temporal.namespace,
        activityQueue: config.connectors.taskQueue,
        log,
      });
      cleanups.push(() => connectors!.stop());
    }

    const urls: string[] = [];
    if (config.role === 'all' || config.role === 'api') {
      const services: Services = {
        config,
        ...jobs,
        signingSecret: await loadSigningSecret(config),
        version: VERSION,
        connectorStatus: cachedConnectorStatus(jobs),
        temporalUi: temporalUi(config.temporal.uiUrl ?? devServer?.uiUrl, config.temporal.namespace),
      };
      const app = createApp({ routes: allRoutes(services), log, authenticate: createAuthenticator(storage) });
      for (const port of [config.http.port, config.http.v2Port].filter((p): p is number => p !== undefined)) {
        const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app.callback());
        server.on('clientError', answerClientError);
        // Analyses and conversions may take minutes (SPEC: clients wait up to 600 s).
        server.requestTimeout = 660_000;
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, config.http.host, resolve));
        cleanups.push(
          () =>
            new Promise((resolve) => {
              server.close(() => resolve());
              server.closeIdleConnections();
            }),
        );
        urls.push(`http://${config.http.host}:${(server.address() as AddressInfo).port}`);
      }
    }
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

/**
 * Node's default (16 KiB) would cut the connection on a long header before any route could say
 * which header is wrong; with room for it, a 100,000-character Idempotency-Key gets its 400.
 */
const MAX_HEADER_BYTES = 256 * 1024;

/** A request HTTP cannot even parse (headers above MAX_HEADER_BYTES, broken syntax) still gets an answer in the envelope. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code = err.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
  const envelope = toEnvelope(new ApiError(code), randomUUID());
  const body = JSON.stringify(envelope);
  socket.end(
    `HTTP/1.1 ${ERROR_CODES[code].status} ${http.STATUS_CODES[ERROR_CODES[code].status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
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
