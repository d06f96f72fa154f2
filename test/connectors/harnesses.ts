import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { auth } from '@googleapis/drive';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LocalSource } from '../../connectors/sources/local.js';
import { GdriveSource } from '../../connectors/sources/gdrive.js';
import { S3Source } from '../../connectors/sources/s3.js';
import { SftpSource } from '../../connectors/sources/sftp.js';
import { createDriveFolder, startDriveEmulator, type DriveEmulator } from '../support/drive-emulator.js';
import { startMoto, type MotoServer } from '../support/moto.js';
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

export function s3Harness(): SourceHarness {
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
    const client = new S3Client({ region: 'us-east-1', endpoint: server.endpoint, forcePathStyle: true, credentials: options().credentials });
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
    stop: async () => server?.stop(),
  };
}

export function gdriveHarness(): SourceHarness {
  let emulator: DriveEmulator;
  let rootFolderId = '';
  return {
    async start() {
      emulator = await startDriveEmulator();
      rootFolderId = await createDriveFolder(emulator, 'einvoice-inbox');
    },
    stopServer: () => emulator.stop(),
    startServer: () => emulator.start(),
    source() {
      const client = new auth.OAuth2();
      client.setCredentials({ access_token: emulator.token });
      return new GdriveSource({ rootFolderId, auth: client, rootUrl: emulator.rootUrl });
    },
    stop: async () => emulator?.stop(),
  };
}
