#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { createS3Client, ensureBucket } from '../storage/s3-client.js';

/**
 * Operator tool for the S3-compatible blob store (BLOB_STORE=s3), configured by the same
 * environment variables as the service:
 *
 *   node dist/src/cli/blob-store.js ensure-bucket [--bucket NAME]
 *
 * Exit codes: 0 the bucket exists (now), 1 the server refused or could not be reached, 2 bad
 * usage or configuration.
 */

const USAGE = `Usage: blob-store ensure-bucket [--bucket NAME]

  ensure-bucket   create the bucket BLOB_S3_BUCKET names (or NAME, on the same server) unless it exists

The server and credentials come from BLOB_S3_ENDPOINT, BLOB_S3_REGION, BLOB_S3_FORCE_PATH_STYLE and the
AWS SDK's usual sources (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, profiles, web identity).`;

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ options: { bucket: { type: 'string' }, help: { type: 'boolean', default: false } }, allowPositionals: true });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  if (parsed.positionals.join(' ') !== 'ensure-bucket') {
    console.error(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    return 2;
  }
  if (config.blobs.kind !== 's3') {
    console.error('BLOB_STORE is not s3: there is no bucket to create.');
    return 2;
  }
  const bucket = parsed.values.bucket ?? config.blobs.bucket;
  const client = createS3Client(config.blobs);
  try {
    const created = await ensureBucket(client, bucket);
    console.log(created ? `created bucket ${bucket}` : `bucket ${bucket} exists`);
    return 0;
  } catch (err) {
    console.error(`bucket ${bucket}: ${(err as Error).message}`);
    return 1;
  } finally {
    client.destroy();
  }
}

process.exitCode = await main();
