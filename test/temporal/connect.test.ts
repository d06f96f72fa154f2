import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { TransportError } from '@temporalio/worker';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/spawn-service.js';
import { connectNative } from '../../src/temporal/connect.js';
import { startDevServer, type DevServer } from '../../src/temporal/dev-server.js';

const log = pino({ level: 'silent' });
const cliPath = process.env.TEMPORAL_CLI ?? path.resolve('.tools/temporal/bin/temporal');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'einvoice-connect-'));
let server: DevServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('connectNative', () => {
  it('gives up with the transport error once its time is over', async () => {
    const port = await freePort();
    const started = Date.now();
    await expect(connectNative(`127.0.0.1:${port}`, log, 1_500)).rejects.toBeInstanceOf(TransportError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('waits for a server that comes up after the first attempt', async () => {
    const { port, connecting } = await connectBeforeServerStarts();
    const connection = await connecting;
    try {
      const info = await connection.workflowService.getSystemInfo({});
      expect(info.serverVersion).toMatch(/\d+\.\d+/);
    } finally {
      await connection.close();
    }
    expect(server?.address).toBe(`127.0.0.1:${port}`);
  }, 180_000);
});

describe('startDevServer', () => {
  it('says why the server exited at start, from the end of its log', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const uiPort = (taken.address() as net.AddressInfo).port;
    const own = mkdtempSync(path.join(os.tmpdir(), 'einvoice-taken-'));
    try {
      const start = startDevServer({ cliPath, dataDir: own, namespace: 'taken', port: await freePort(), uiPort, log });
      await expect(start).rejects.toThrow(new RegExp(`exited at start[\\s\\S]*${uiPort}.*address already in use`));
    } finally {
      taken.close();
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * Starts connecting, then the server a second later. A free port can be taken by a process of
 * another test file before the server binds it: such a start is tried again on other ports.
 */
async function connectBeforeServerStarts(): Promise<{ port: number; connecting: ReturnType<typeof connectNative> }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const connecting = connectNative(`127.0.0.1:${port}`, log, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    try {
      server = await startDevServer({ cliPath, dataDir, namespace: 'connect-test', port, uiPort: await freePort(), log });
      return { port, connecting };
    } catch (err) {
      connecting.catch(() => undefined);
      if (attempt >= 3 || !/address already in use|Port \d+ is in use/.test((err as Error).message)) throw err;
    }
  }
}
