import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';
import { BlobNotFoundError, InvalidBlobKeyError, scopedKey } from '../../src/storage/blob-store.js';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import { startMoto, type MotoServer } from '../support/moto.js';

/**
 * The S3-compatible blob store (BLOB_STORE=s3) against a real S3-compatible server on loopback
 * (moto, which scripts/setup-connectors.sh installs), and the service running on it.
 */

const run = promisify(execFile);
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const bucket = 'einvoice-blobs';
let moto: MotoServer;
let s3: S3Client;

beforeAll(async () => {
  moto = await startMoto();
  s3 = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
});
afterAll(async () => {
  s3?.destroy();
  await moto?.stop();
});

const store = (prefix = 'blobs/', endpoint = moto.endpoint) =>
  new S3BlobStore({ bucket, prefix, endpoint, forcePathStyle: true, region: 'us-east-1', credentials, maxAttempts: 1 });
const objectKeys = async (prefix: string) =>
  ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key);

describe('S3BlobStore', () => {
  it('stores bytes as <prefix><uuid>, with size and SHA-256, and reads them back', async () => {
    const blobs = store('install-a/');
    const bytes = new TextEncoder().encode('<Invoice>Grüße</Invoice>');
    const stored = await blobs.put(bytes);
    expect(stored.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stored).toMatchObject({ size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect(await objectKeys('install-a/')).toEqual([`install-a/${stored.key}`]);
    expect(await blobs.get(stored.key)).toEqual(Buffer.from(bytes));
    expect(await blobs.stat(stored.key)).toEqual(stored);
  });

  it('stores empty and large blobs, and gives every put its own key when many run at once', async () => {
    const blobs = store();
    expect((await blobs.get((await blobs.put(new Uint8Array())).key)).length).toBe(0);
    const large = new Uint8Array(5 * 1024 * 1024).map((_, i) => i % 251);
    expect((await blobs.get((await blobs.put(large)).key)).equals(large)).toBe(true);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => blobs.put(Buffer.from(`blob ${i}`))));
    expect(new Set(results.map((r) => r.key)).size).toBe(30);
    for (const [i, r] of results.entries()) expect((await blobs.get(r.key)).toString()).toBe(`blob ${i}`);
  });

  it('keeps the hash beside the object, so stat does not download it; an object without one is read', async () => {
    const blobs = store('stat/');
    const stored = await blobs.put(Buffer.from('hash me'));
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: `stat/${stored.key}` }));
    expect(head.Metadata).toEqual({ sha256: stored.sha256 });
    const foreign = randomUUID();
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `stat/${foreign}`, Body: Buffer.from('written elsewhere') }));
    expect(await blobs.stat(foreign)).toEqual({
      key: foreign,
      size: 17,
      sha256: createHash('sha256').update('written elsewhere').digest('hex'),
    });
  });

  it('scoped: the same bytes in the same scope are one object, uploaded once (the same key as the local store makes); other scopes and random puts stay apart', async () => {
    const blobs = store('scoped/');
    const bytes = Buffer.from('%PDF-1.7 the built document');
    const first = await blobs.scoped('createXinvoiceFromJson-key-1/3').put(bytes);
    expect(first.key).toBe(scopedKey('createXinvoiceFromJson-key-1/3', first.sha256));
    const { LastModified } = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: `scoped/${first.key}` }));
    await new Promise((r) => setTimeout(r, 1100)); // S3 times are in whole seconds
    // A retried step: same key, and nothing uploaded again.
    expect(await blobs.scoped('createXinvoiceFromJson-key-1/3').put(bytes)).toEqual(first);
    expect((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: `scoped/${first.key}` }))).LastModified).toEqual(LastModified);
    expect((await blobs.scoped('createXinvoiceFromJson-key-2/3').put(bytes)).key).not.toBe(first.key);
    expect((await blobs.put(bytes)).key).not.toBe(first.key);
    const racing = await Promise.all(Array.from({ length: 8 }, () => blobs.scoped('race').put(bytes)));
    expect(new Set(racing.map((r) => r.key)).size).toBe(1);
    expect(await blobs.get(racing[0]!.key)).toEqual(bytes);
  });

  it('lists the blobs under its prefix with the time each was written, over several pages, and nothing else in the bucket', async () => {
    const blobs = store('listed/');
    const before = Date.now() - 2000;
    // More than one listing page (1,000 keys), uploaded 50 at a time (the SDK's sockets).
    const keys: string[] = [];
    for (let i = 0; i < 1003; i += 50)
      keys.push(
        ...(await Promise.all(Array.from({ length: Math.min(50, 1003 - i) }, (_, j) => blobs.put(Buffer.from(`blob ${i + j}`))))).map(
          (b) => b.key,
        ),
      );
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'listed/nested/0f8fad5b-d9cb-469f-a165-70867728950e',
        Body: Buffer.from('not a blob of this store'),
      }),
    );
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'listed-other/0f8fad5b-d9cb-469f-a165-70867728950e',
        Body: Buffer.from('another prefix'),
      }),
    );
    const listed: Array<{ key: string; writtenAt: number }> = [];
    for await (const blob of blobs.list()) listed.push(blob);
    expect(listed.map((b) => b.key).sort()).toEqual([...keys].sort());
    for (const b of listed) expect(b.writtenAt).toBeGreaterThanOrEqual(before);
    for (const b of listed) expect(b.writtenAt).toBeLessThanOrEqual(Date.now() + 2000);
  });

  it('reports a missing blob as BlobNotFoundError, deletes, and says whether there was anything to delete', async () => {
    const blobs = store();
    const missing = randomUUID();
    await expect(blobs.get(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(blobs.stat(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
    const { key } = await blobs.put(Buffer.from('z'));
    expect(await blobs.delete(key)).toBe(true);
    expect(await blobs.delete(key)).toBe(false);
    await expect(blobs.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it.each([
    '../other-install/0f8fad5b-d9cb-469f-a165-70867728950e',
    '',
    '0F8FAD5B-D9CB-469F-A165-70867728950E',
    'ab/0f8fad5b-d9cb-469f-a165-70867728950e',
  ])('refuses the key %j before any request', async (key) => {
    const blobs = store('', 'http://127.0.0.1:9'); // nothing listens there: a request would fail otherwise
    await expect(blobs.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(blobs.stat(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(blobs.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
  });

  it('passes an unreachable server on as such, not as a missing blob (the activity retries it)', async () => {
    const blobs = store('', 'http://127.0.0.1:9');
    const err = await blobs.get(randomUUID()).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(BlobNotFoundError);
    expect(err).toBeInstanceOf(Error);
  });
});

describe('blob-store ensure-bucket (the CLI deploy/compose.yaml creates its buckets with)', () => {
  const cli = (args: string[], env: Record<string, string>) =>
    run(process.execPath, [path.join(repoRoot, 'dist/src/cli/blob-store.js'), ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        BLOB_STORE: 's3',
        BLOB_S3_BUCKET: 'made-by-cli',
        BLOB_S3_ENDPOINT: moto.endpoint,
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        ...env,
      },
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );

  it('creates the bucket once, and finds it there the second time', async () => {
    expect(await cli(['ensure-bucket'], {})).toEqual({ code: 0, out: 'created bucket made-by-cli\n' });
    expect(await cli(['ensure-bucket'], {})).toEqual({ code: 0, out: 'bucket made-by-cli exists\n' });
    expect(await cli(['ensure-bucket', '--bucket', 'other-one'], {})).toEqual({ code: 0, out: 'created bucket other-one\n' });
    await s3.send(new HeadBucketCommand({ Bucket: 'other-one' }));
  });

  it('exits 2 without an S3 blob store configured, 1 when the server cannot be reached', async () => {
    expect((await cli(['ensure-bucket'], { BLOB_STORE: 'local' })).code).toBe(2);
    expect((await cli(['make-bucket'], {})).code).toBe(2);
    expect((await cli(['ensure-bucket'], { BLOB_S3_ENDPOINT: 'http://127.0.0.1:9' })).code).toBe(1);
  });
});

describe('the service with BLOB_STORE=s3', () => {
  let service: SpawnedService;
  beforeAll(async () => {
    service = await spawnService({
      name: 's3-blobs',
      env: {
        BLOB_STORE: 's3',
        BLOB_S3_BUCKET: bucket,
        BLOB_S3_PREFIX: 'service/',
        BLOB_S3_ENDPOINT: moto.endpoint,
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
      },
    });
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('keeps created documents in the bucket, serves their download links from there, and nothing in the data folder', async () => {
    const invoice = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/invoices/01-standard-19.json'), 'utf8'));
    const res = await fetch(`${service.url}/api/v1/zugferd/createXinvoiceFromJson`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ invoice }),
    });
    const json = (await res.json()) as { xInvoice: string; downloadURL: string };
    expect(res.status, JSON.stringify(json)).toBe(200);
    const keys = await objectKeys('service/');
    // The uploaded invoice JSON and the XML; the first is discarded once the document is stored or not.
    expect(keys.length).toBeGreaterThanOrEqual(1);
    const xml = await Promise.all(
      keys.map(async (k) => (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: k! }))).Body!.transformToString()),
    );
    expect(xml).toContain(json.xInvoice);
    const download = await fetch(json.downloadURL);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(json.xInvoice);
    const local = path.join(service.dataDir, 'blobs');
    expect(existsSync(local) ? readdirSync(local, { recursive: true }).filter((f) => /[0-9a-f-]{36}$/.test(String(f))) : []).toEqual([]);
  });
});
