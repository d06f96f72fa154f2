import { NativeConnection, TransportError } from '@temporalio/worker';
import type { Logger } from 'pino';

/**
 * A worker's connection, waiting for a server that is still coming up: the dev server opens its
 * port before its frontend answers ("Frontend is not healthy yet"), and a cluster's frontend may
 * start after our workers. The client's Connection retries this by itself; NativeConnection does not.
 */
export async function connectNative(address: string, log: Logger, timeoutMs = 60_000): Promise<NativeConnection> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1, delayMs = 200; ; attempt++, delayMs = Math.min(delayMs * 2, 2_000)) {
    try {
      return await NativeConnection.connect({ address });
    } catch (err) {
      if (!(err instanceof TransportError) || Date.now() + delayMs > deadline) throw err;
      if (attempt === 1) log.info({ address, reason: err.message }, 'Temporal not ready yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
