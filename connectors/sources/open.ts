import { readFileSync } from 'node:fs';
import { auth } from '@googleapis/drive';
import type { SecretRef, SourceConfig } from '../config.js';
import { GdriveSource } from './gdrive.js';
import { LocalSource } from './local.js';
import { S3Source } from './s3.js';
import { SftpSource } from './sftp.js';
import type { FolderSource } from './source.js';

/** A secret's value, from its file or environment variable; a missing one names what is missing. */
export function readSecret(ref: SecretRef, env: NodeJS.ProcessEnv = process.env): string {
  if ('file' in ref) return readFileSync(ref.file, 'utf8').trim();
  const value = env[ref.env];
  if (value === undefined || value === '') throw new Error(`The environment variable ${ref.env} is not set`);
  return value;
}

const DRIVE_SCOPES = ['https://www.googleapis.com/auth/drive'];

/**
 * Drive credentials: a service account key, or an OAuth client with a refresh token (what `gcloud auth`
 * and the OAuth playground give). The token endpoint is the one the credentials name (`token_uri`, as
 * Google's client files carry it), so an emulator's stands in for Google's in tests.
 */
function driveAuth(json: string) {
  const key = JSON.parse(json) as { type?: string; client_id?: string; client_secret?: string; refresh_token?: string; token_uri?: string };
  if (key.refresh_token && key.client_id && key.client_secret) {
    const client = new auth.OAuth2({
      clientId: key.client_id,
      clientSecret: key.client_secret,
      ...(key.token_uri ? { endpoints: { oauth2TokenUrl: key.token_uri } } : {}),
    });
    client.setCredentials({ refresh_token: key.refresh_token });
    return client;
  }
  return new auth.GoogleAuth({ credentials: key, scopes: DRIVE_SCOPES });
}

/** The adapter a source's configuration describes, with its secrets read. */
export function openSource(config: SourceConfig, env: NodeJS.ProcessEnv = process.env): FolderSource {
  const secret = (ref: SecretRef | undefined) => (ref ? readSecret(ref, env) : undefined);
  switch (config.kind) {
    case 'local':
      return new LocalSource({ root: config.root });
    case 'sftp':
      return new SftpSource({
        host: config.host,
        port: config.port,
        username: config.username,
        root: config.root,
        ...(config.privateKey ? { privateKey: secret(config.privateKey)! } : {}),
        ...(config.passphrase ? { passphrase: secret(config.passphrase)! } : {}),
        ...(config.password ? { password: secret(config.password)! } : {}),
        ...(config.hostKeySha256 ? { hostKeySha256: config.hostKeySha256 } : {}),
      });
    case 's3':
      return new S3Source({
        bucket: config.bucket,
        prefix: config.prefix,
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        credentials: { accessKeyId: secret(config.accessKeyId)!, secretAccessKey: secret(config.secretAccessKey)! },
      });
    case 'gdrive':
      return new GdriveSource({
        rootFolderId: config.rootFolderId,
        auth: driveAuth(secret(config.credentials)!),
        ...(config.apiRoot ? { rootUrl: config.apiRoot } : {}),
      });
  }
}
