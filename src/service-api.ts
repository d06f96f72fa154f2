import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { createApp } from './api/app.js';
import { createAuthenticator } from './api/authenticate.js';
import { ApiError, ERROR_CODES, toEnvelope } from './api/errors.js';
import { allRoutes } from './api/routes/index.js';
import type { Services } from './api/services.js';
import { loadSigningSecret } from './auth/signed-url.js';
import type { Config } from './config.js';
import { cachedConnectorStatus } from './jobs/submit/connector-status.js';
import type { JobDeps } from './jobs/submit/run-workflow.js';
import type { Cleanups } from './cleanups.js';
import { temporalUi } from './temporal/ui.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The HTTP front end, on PORT and V2_PORT; answers the base URLs it listens on. */
export async function startApiRole(
  config: Config,
  log: Logger,
  { jobs, devServerUiUrl }: { jobs: JobDeps; devServerUiUrl: string | undefined },
  cleanups: Cleanups,
): Promise<string[]> {
  const services: Services = {
    config,
    ...jobs,
    signingSecret: await loadSigningSecret(config),
    version: VERSION,
    connectorStatus: cachedConnectorStatus(jobs),
    temporalUi: temporalUi(config.temporal.uiUrl ?? devServerUiUrl, config.temporal.namespace),
  };
  const app = createApp({ routes: allRoutes(services), log, authenticate: createAuthenticator(jobs.storage) });
  const urls: string[] = [];
  for (const port of [config.http.port, config.http.v2Port].filter((p): p is number => p !== undefined)) {
    urls.push(await listen(app.callback(), config.http.host, port, cleanups));
  }
  return urls;
}

async function listen(callback: http.RequestListener, host: string, port: number, cleanups: Cleanups): Promise<string> {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, callback);
  server.on('clientError', answerClientError);
  // Analyses and conversions may take minutes (SPEC: clients wait up to 600 s).
  server.requestTimeout = 660_000;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  return `http://${host}:${(server.address() as AddressInfo).port}`;
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
