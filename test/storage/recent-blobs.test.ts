import { mkdtempSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobStore } from '../../src/storage/blob-store.js';
import { withRecentBlobs } from '../../src/storage/recent-blobs.js';

/** A request's steps read back what the previous step wrote: from memory, not from the store. */

const dir = mkdtempSync(path.join(tmpdir(), 'recent-blobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileOf = (store: BlobStore, key: string) => path.join(store.root, key.slice(0, 2), key.slice(2, 4), key);

describe('recent blobs', () => {
  it('answers get and stat for what it wrote without reading the store, and the store still holds it', async () => {
    const disk = new BlobStore(dir);
    const blobs = withRecentBlobs(disk);
    const stored = await blobs.put(Buffer.from('<Invoice/>'));
    expect(await disk.get(stored.key)).toEqual(Buffer.from('<Invoice/>'));
    await unlink(fileOf(disk, stored.key));
    expect((await blobs.get(stored.key)).toString()).toBe('<Invoice/>');
    expect(await blobs.stat(stored.key)).toEqual(stored);
    // A caller that changes its buffer changes no one else's.
    (await blobs.get(stored.key)).fill(0);
    expect((await blobs.get(stored.key)).toString()).toBe('<Invoice/>');
  });

  it('keeps what scoped views write, forgets what is deleted, and lets the oldest go beyond its limit', async () => {
    const disk = new BlobStore(dir);
    const blobs = withRecentBlobs(disk, { maxBytes: 10, maxBlobBytes: 8 });
    const a = await blobs.scoped('step-1').put(Buffer.from('aaaa'));
    const b = await blobs.put(Buffer.from('bbbb'));
    const big = await blobs.put(Buffer.from('ccccccccc'));
    const c = await blobs.put(Buffer.from('dddd'));
    for (const key of [a.key, b.key, big.key, c.key]) await unlink(fileOf(disk, key));
    // 'aaaa' went when 'dddd' came (12 bytes > 10); the 9-byte blob was never kept.
    await expect(blobs.get(a.key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(blobs.get(big.key)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect((await blobs.get(b.key)).toString()).toBe('bbbb');
    expect((await blobs.get(c.key)).toString()).toBe('dddd');
    expect(await blobs.delete(c.key)).toBe(false);
    await expect(blobs.get(c.key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });
});
