import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobStore, InvalidBlobKeyError } from '../../src/storage/blob-store.js';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('BlobStore', () => {
  let dataDir: string;
  let store: BlobStore;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'einv-blobs-'));
    store = new BlobStore(dataDir);
  });

  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('stores bytes under a random UUID key in sharded folders, with size and SHA-256', async () => {
    const bytes = new TextEncoder().encode('<Invoice>Grüße</Invoice>');
    const stored = await store.put(bytes);
    expect(stored.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stored.size).toBe(bytes.byteLength);
    expect(stored.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await filesUnder(path.join(dataDir, 'blobs'))).toEqual([path.join(stored.key.slice(0, 2), stored.key.slice(2, 4), stored.key)]);
    expect(await store.get(stored.key)).toEqual(Buffer.from(bytes));
    expect(await store.stat(stored.key)).toEqual(stored);
  });

  it('scoped: the same bytes in the same scope are one blob, written once; other scopes and random puts stay apart', async () => {
    const bytes = Buffer.from('%PDF-1.7 the built document');
    const step = store.scoped('createXinvoiceFromJson-key-1/3');
    const first = await step.put(bytes);
    const { mtimeMs } = await stat(path.join(dataDir, 'blobs', first.key.slice(0, 2), first.key.slice(2, 4), first.key));
    await new Promise((r) => setTimeout(r, 20));
    // A retried step: same key, and the file is not written again.
    const again = await store.scoped('createXinvoiceFromJson-key-1/3').put(bytes);
    expect(again).toEqual(first);
    expect((await stat(path.join(dataDir, 'blobs', first.key.slice(0, 2), first.key.slice(2, 4), first.key))).mtimeMs).toBe(mtimeMs);
    expect((await store.scoped('createXinvoiceFromJson-key-2/3').put(bytes)).key).not.toBe(first.key);
    expect((await step.put(Buffer.from('other bytes'))).key).not.toBe(first.key);
    expect((await store.put(bytes)).key).not.toBe(first.key);
    // Concurrent writers of one key (two runs of a step at once) leave one whole blob.
    const racing = await Promise.all(Array.from({ length: 8 }, () => store.scoped('race').put(bytes)));
    expect(new Set(racing.map((r) => r.key)).size).toBe(1);
    expect(await store.get(racing[0]!.key)).toEqual(bytes);
    expect(await readdir(path.join(dataDir, 'blobs', 'tmp'))).toEqual([]);
  });

  it('stores empty and large blobs', async () => {
    const empty = await store.put(new Uint8Array());
    expect((await store.get(empty.key)).length).toBe(0);
    const large = new Uint8Array(5 * 1024 * 1024).map((_, i) => i % 251);
    const stored = await store.put(large);
    expect((await store.get(stored.key)).equals(large)).toBe(true);
  });

  it('gives every put its own key, also when many run at once', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.put(Buffer.from(`blob ${i}`))));
    expect(new Set(results.map((r) => r.key)).size).toBe(50);
    for (const [i, r] of results.entries()) expect((await store.get(r.key)).toString()).toBe(`blob ${i}`);
  });

  it('leaves no temporary file behind and never exposes one as a blob', async () => {
    await store.put(Buffer.from('x'));
    expect(await readdir(path.join(dataDir, 'blobs', 'tmp'))).toEqual([]);
    // A write that crashed before its rename leaves only a temp file: that key does not exist.
    const key = randomUUID();
    await writeFile(path.join(dataDir, 'blobs', 'tmp', `${key}.tmp`), 'half a blo');
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('removes stale temporary files from a crash, but not recent ones', async () => {
    const tmp = path.join(dataDir, 'blobs', 'tmp');
    await mkdir(tmp, { recursive: true });
    const stale = path.join(tmp, `${randomUUID()}.tmp`);
    const recent = path.join(tmp, `${randomUUID()}.tmp`);
    await writeFile(stale, 'old');
    await writeFile(recent, 'in progress');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);

    await new BlobStore(dataDir).put(Buffer.from('y'));
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  it('writes blob files readable by the owner only', async () => {
    const { key } = await store.put(Buffer.from('secret invoice'));
    const info = await stat(path.join(dataDir, 'blobs', key.slice(0, 2), key.slice(2, 4), key));
    expect(info.mode & 0o777).toBe(0o600);
  });

  it('reports a missing blob with a clear error', async () => {
    const key = randomUUID();
    const error = await store.get(key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlobNotFoundError);
    expect(error).toMatchObject({ code: 'BLOB_NOT_FOUND', key, message: `Blob not found: ${key}` });
    await expect(store.stat(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('deletes, and says whether there was anything to delete', async () => {
    const { key } = await store.put(Buffer.from('z'));
    expect(await store.delete(key)).toBe(true);
    expect(await store.delete(key)).toBe(false);
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it.each([
    '../../etc/passwd',
    '../blobs/tmp/x',
    '/etc/passwd',
    '',
    '.',
    'ab/cd/0f8fad5b-d9cb-469f-a165-70867728950e',
    '0f8fad5b-d9cb-469f-a165-70867728950e/../../x',
    '0F8FAD5B-D9CB-469F-A165-70867728950E',
    '0f8fad5b-d9cb-469f-a165-70867728950e\0',
    '..\\..\\windows',
  ])('rejects the key %j in every operation', async (key) => {
    // A file outside the store that a traversal would reach.
    await writeFile(path.join(dataDir, 'outside'), 'must stay');
    await expect(store.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.stat(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(existsSync(path.join(dataDir, 'outside'))).toBe(true);
  });
});
