import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LocalSource } from '../../connectors/sources/local.js';
import { SftpSource } from '../../connectors/sources/sftp.js';
import { startSshd, type SshdServer } from '../support/sshd.js';
import type { SourceHarness } from './source-contract.js';

/** The local folder's "server" is the directory itself: stopping it moves it away, as an unmounted share would be. */
export function localHarness(): SourceHarness {
  let base = '';
  const root = () => path.join(base, 'share');
  const away = () => path.join(base, 'unmounted');
  return {
    async start() {
      base = await mkdtemp(path.join(tmpdir(), 'local-source-'));
      await mkdir(root());
    },
    stopServer: () => rename(root(), away()),
    startServer: () => rename(away(), root()),
    source: () => new LocalSource({ root: root() }),
    stop: () => rm(base, { recursive: true, force: true }),
  };
}

export function sftpHarness(): SourceHarness {
  let server: SshdServer;
  let root = '';
  return {
    async start() {
      root = await mkdtemp(path.join(tmpdir(), 'sftp-source-'));
      server = await startSshd();
    },
    stopServer: () => server.stop(),
    startServer: () => server.start(),
    source: () =>
      new SftpSource({
        host: server.host,
        port: server.port,
        username: server.username,
        privateKey: server.privateKey,
        hostKeySha256: server.hostKeySha256,
        root,
      }),
    async stop() {
      await server?.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}
