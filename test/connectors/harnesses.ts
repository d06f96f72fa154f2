import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { auth } from '@googleapis/drive';
import { appendFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LocalSource } from '../../connectors/sources/local.js';
import { GdriveSource } from '../../connectors/sources/gdrive.js';
import { S3Source } from '../../connectors/sources/s3.js';
import type { FolderSource } from '../../connectors/sources/source.js';
import { SftpSource } from '../../connectors/sources/sftp.js';
import { createDriveFolder, startDriveEmulator, type DriveEmulator } from '../support/drive-emulator.js';
import { startMoto, type MotoServer } from '../support/moto.js';
import { startSshd, type SshdServer } from '../../scripts/lib/sshd.js';
import SftpClient from 'ssh2-sftp-client';
import type { SourceHarness } from './source-contract.js';

/** A harness whose server a connectors process can be configured for (test/connectors/route-contract.ts). */
export interface RouteHarness extends SourceHarness {
  /** The source as the connectors' configuration names it (a YAML flow map), and the environment its secret references need. */
  sourceConfig(): { yaml: string; env: Record<string, string> };
  /**
   * Drops a file the way a slow client does, over about `ms`: in pieces where the server shows a
   * file while it is written (a local folder, SFTP); as a file replaced by ever longer versions
   * where an upload only appears once whole (S3, Drive), i.e. a client that uploads again and again.
   */
  dropSlowly(path: string, bytes: Uint8Array, ms: number): Promise<void>;
}

const PIECES = 12;
const piece = (bytes: Uint8Array, i: number) =>
  bytes.subarray(Math.floor((i * bytes.length) / PIECES), Math.floor(((i + 1) * bytes.length) / PIECES));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Replaces the file with ever longer beginnings of `bytes`, the last one whole. */
async function uploadAgainAndAgain(source: () => FolderSource, path: string, bytes: Uint8Array, ms: number): Promise<void> {
  const client = source();
  try {
    for (let i = 1; i <= PIECES; i++) {
      await client.write(path, bytes.subarray(0, Math.floor((i * bytes.length) / PIECES)));
      await pause(ms / PIECES);
    }
  } finally {
    await client.close();
  }
}

/** The local folder's "server" is the directory itself: stopping it moves it away, as an unmounted share would be. */
export function localHarness(): RouteHarness {
  let base = '';
  const root = () => path.join(base, 'share');
  const away = () => path.join(base, 'unmounted');
  return {
    sourceConfig: () => ({ yaml: `{ kind: local, root: ${root()}, pollSeconds: 1 }`, env: {} }),
    async dropSlowly(file, bytes, ms) {
      const target = path.join(root(), ...file.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      for (let i = 0; i < PIECES; i++) {
        await appendFile(target, piece(bytes, i));
        await pause(ms / PIECES);
      }
    },
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

export function sftpHarness(): RouteHarness {
  let server: SshdServer;
  let root = '';
  let keyFile = '';
  return {
    async start() {
      root = await mkdtemp(path.join(tmpdir(), 'sftp-source-'));
      server = await startSshd();
      keyFile = path.join(root, '..', `${path.basename(root)}.key`);
      await writeFile(keyFile, server.privateKey, { mode: 0o600 });
    },
    sourceConfig: () => ({
      yaml: `{ kind: sftp, host: ${server.host}, port: ${server.port}, username: ${server.username}, root: ${root}, privateKey: { file: ${keyFile} }, hostKeySha256: "${server.hostKeySha256}", pollSeconds: 1 }`,
      env: {},
    }),
    async dropSlowly(file, bytes, ms) {
      const client = new SftpClient();
      await client.connect({ host: server.host, port: server.port, username: server.username, privateKey: server.privateKey });
      try {
        const target = `${root}/${file}`;
        await client.mkdir(path.posix.dirname(target), true);
        for (let i = 0; i < PIECES; i++) {
          await client.append(Buffer.from(piece(bytes, i)), target);
          await pause(ms / PIECES);
        }
      } finally {
        await client.end();
      }
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
      if (keyFile) await rm(keyFile, { force: true });
    },
  };
}

export function s3Harness(): RouteHarness {
  let server: MotoServer;
  const bucket = 'einvoice-inbox';
  const options = () => ({
    bucket,
    prefix: 'connector',
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    // A stopped server should be reported at once, not after the SDK's backoff.
    maxAttempts: 1,
  });
  // moto starts empty, the first time and after a restart.
  const createBucket = async () => {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: options().credentials,
    });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
  };
  return {
    async start() {
      server = await startMoto();
      await createBucket();
    },
    stopServer: () => server.stop(),
    async startServer() {
      await server.start();
      await createBucket();
    },
    source: () => new S3Source(options()),
    sourceConfig: () => ({
      yaml: `{ kind: s3, bucket: ${bucket}, prefix: connector, endpoint: "${server.endpoint}", accessKeyId: { env: S3_KEY_ID }, secretAccessKey: { env: S3_SECRET }, pollSeconds: 1 }`,
      env: { S3_KEY_ID: 'test', S3_SECRET: 'test' },
    }),
    dropSlowly(file, bytes, ms) {
      return uploadAgainAndAgain(() => new S3Source(options()), file, bytes, ms);
    },
    stop: async () => server?.stop(),
  };
}

export function gdriveHarness(): RouteHarness {
  let emulator: DriveEmulator;
  let rootFolderId = '';
  const source = () => {
    const client = new auth.OAuth2();
    client.setCredentials({ access_token: emulator.token });
    return new GdriveSource({ rootFolderId, auth: client, rootUrl: emulator.rootUrl });
  };
  return {
    sourceConfig: () => ({
      yaml: `{ kind: gdrive, rootFolderId: ${rootFolderId}, credentials: { env: DRIVE_CREDENTIALS }, apiRoot: "${emulator.rootUrl}", pollSeconds: 1 }`,
      env: { DRIVE_CREDENTIALS: emulator.oauthCredentials },
    }),
    dropSlowly: (file, bytes, ms) => uploadAgainAndAgain(source, file, bytes, ms),
    async start() {
      emulator = await startDriveEmulator();
      rootFolderId = await createDriveFolder(emulator, 'einvoice-inbox');
    },
    stopServer: () => emulator.stop(),
    startServer: () => emulator.start(),
    source,
    stop: async () => emulator?.stop(),
  };
}
