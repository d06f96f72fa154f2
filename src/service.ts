import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import { withHeartbeats } from '../activities/heartbeat.js';
import { createActivities } from '../activities/index.js';
import { createApp } from './api/app.js';
import { allRoutes } from './api/routes/index.js';
import type { Services } from './api/services.js';
import { createAuthenticator } from './api/authenticate.js';
import type { Config } from './config.js';
import { loadSigningSecret } from './auth/signed-url.js';
import { cachedConnectorStatus } from './jobs/connector-status.js';
import { createMailTransport } from './mail/transport.js';
import { configureVeraPdf, stopVeraPdf } from './pdf/verapdf.js';
import { BlobStore } from './storage/blob-store.js';
import { openStorage } from './storage/index.js';
import { startDevServer, type DevServer } from './temporal/dev-server.js';
import { ensureNamespace } from './temporal/namespace.js';
import { temporalUi } from './temporal/ui.js';
import { createWorker } from './temporal/worker.js';
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
    installTemporalRuntime(log);
    let devServer: DevServer | undefined;
    if (!config.temporal.address) {
      devServer = await startDevServer({ cliPath: config.temporal.cliPath, dataDir: config.dataDir, namespace: config.temporal.namespace, port: config.temporal.devPort, uiPort: config.temporal.uiPort, log });
      cleanups.push(() => devServer!.stop());
    }
    const temporalAddress = config.temporal.address ?? devServer!.address;

    const connection = await Connection.connect({ address: temporalAddress });
    cleanups.push(() => connection.close());
    await ensureNamespace(connection, config.temporal.namespace).catch((err) => {
      // On a managed cluster the operator may have set the namespace up already and denied us the rights.
      if (devServer) throw err;
      log.warn({ err }, 'could not check namespace retention and search attributes; continuing');
    });

    const storage = await openStorage(config);
    cleanups.push(() => storage.close());
    const blobs = new BlobStore(config.dataDir);

    if (config.role === 'all' || config.role === 'worker') {
      // The veraPDF processes start with the first check and end after the worker has finished its activities.
      await configureVeraPdf({ size: config.veraPdf.poolSize });
      cleanups.push(() => stopVeraPdf());
      const { worker, connection: workerConnection } = await createWorker({
        address: temporalAddress,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        activities: withHeartbeats(createActivities({ blobs, storage, log, mail: { transport: await createMailTransport(config.mail), testFaults: config.mail.testFaults } })),
      });
      const running = worker.run();
      cleanups.push(async () => {
        worker.shutdown();
        await running;
        await workerConnection.close();
      });
    }

    const jobs = { temporal: new Client({ connection, namespace: config.temporal.namespace }), taskQueue: config.temporal.taskQueue, blobs, storage };
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
        const server = http.createServer(app.callback());
        // Analyses and conversions may take minutes (SPEC: clients wait up to 600 s).
        server.requestTimeout = 660_000;
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, config.http.host, resolve));
        cleanups.push(() => new Promise((resolve) => { server.close(() => resolve()); server.closeIdleConnections(); }));
        urls.push(`http://${config.http.host}:${(server.address() as AddressInfo).port}`);
      }
    }
    log.info({ urls, temporal: temporalAddress, temporalUi: devServer?.uiUrl, namespace: config.temporal.namespace, role: config.role }, 'service started');
    return { urls, temporalAddress, temporalUiUrl: devServer?.uiUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

let runtimeInstalled = false;

/** Temporal's core logs go through our logger; we, not the SDK, react to SIGTERM. */
function installTemporalRuntime(log: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => {
      const level = entry.level === 'ERROR' ? 'error' : entry.level === 'WARN' ? 'warn' : 'debug';
      log[level]({ temporal: entry.meta }, entry.message);
    }),
  });
}
