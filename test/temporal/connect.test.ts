import { mkdtempSync, rmSync } from 'node:fs';
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
    const port = await freePort();
    const connecting = connectNative(`127.0.0.1:${port}`, log, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    server = await startDevServer({ cliPath, dataDir, namespace: 'connect-test', port, uiPort: await freePort(), log });
    const connection = await connecting;
    try {
      const info = await connection.workflowService.getSystemInfo({});
      expect(info.serverVersion).toMatch(/\d+\.\d+/);
    } finally {
      await connection.close();
    }
  }, 90_000);
});
