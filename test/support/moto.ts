import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { freePort, repoRoot } from '../../scripts/lib/spawn-service.js';
import { startChildServer, type ChildServer } from '../../scripts/lib/child-server.js';

/**
 * moto's S3-compatible server on a loopback port, from .tools/moto, which
 * scripts/setup-connectors.sh installs. It keeps everything in memory: a
 * restart comes back empty.
 */

const MOTO = path.join(repoRoot, '.tools', 'moto');

export interface MotoServer {
  endpoint: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startMoto(): Promise<MotoServer> {
  if (!existsSync(path.join(MOTO, 'moto'))) throw new Error(`moto is missing in ${MOTO}: run scripts/setup-test.sh, which installs it`);
  const port = await freePort();
  let running: ChildServer | undefined;
  const server: MotoServer = {
    endpoint: `http://127.0.0.1:${port}`,
    async start() {
      running = await startChildServer('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], port, { PYTHONPATH: MOTO });
    },
    async stop() {
      await running?.stop();
      running = undefined;
    },
  };
  await server.start();
  return server;
}
