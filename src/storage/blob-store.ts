import { createHash, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStorage, ListedBlob, StoredBlob } from './blob-storage.js';

/**
 * Blobs as files under `<dataDir>/blobs`, named by UUID-shaped keys and sharded into
 * `ab/cd/<key>` sub-folders so that no folder grows too large.
 *
 * Keys are random, or, in a store `scoped()` to a job or a workflow step, derived from the scope
 * and the content: a step that runs twice (a retried activity, a client retrying with its
 * Idempotency-Key) writes its bytes under the key of the first run, and only once.
 *
 * Writes are atomic: bytes go to a temporary file in `<root>/tmp` (same file system), are
 * fsynced, then renamed into place, and the folder is fsynced so the rename survives a crash.
 * A reader therefore sees either no blob or the whole blob, never a partial one.
 */

export class BlobNotFoundError extends Error {
  readonly code = 'BLOB_NOT_FOUND';
  constructor(readonly key: string) {
    super(`Blob not found: ${key}`);
  }
}

export class InvalidBlobKeyError extends Error {
  readonly code = 'BLOB_KEY_INVALID';
  constructor(key: string) {
    super(`Invalid blob key: ${JSON.stringify(key.slice(0, 80))}`);
  }
}

/** Only keys we generate are valid, which is what keeps every path inside the root. */
export const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Temporary files older than this are leftovers of a crash, not writes in progress. */
const STALE_TEMP_MS = 60 * 60 * 1000;

export class BlobStore implements BlobStorage {
  readonly root: string;
  private readonly tempDir: string;
  /** Shared with the scoped views of this store: the folders are prepared once. */
  private readonly state: { prepared?: Promise<void> | undefined };

  /** The store in `<dataDir>/blobs`; folders are created on first write. */
  constructor(
    dataDir: string,
    private readonly scope?: string,
    state: { prepared?: Promise<void> } = {},
  ) {
    this.root = path.join(dataDir, 'blobs');
    this.tempDir = path.join(this.root, 'tmp');
    this.state = state;
  }

  /** The same store, but `put` is content-addressed within `scope` (a workflow step, a keyed request). */
  scoped(scope: string): BlobStore {
    return new BlobStore(path.dirname(this.root), scope, this.state);
  }

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    await (this.state.prepared ??= this.prepare().catch((err: unknown) => {
      this.state.prepared = undefined; // let the next write try again
      throw err;
    }));
    const sha256 = sha256Hex(bytes);
    const key = this.scope === undefined ? randomUUID() : scopedKey(this.scope, sha256);
    const target = this.pathOf(key);
    // The same bytes in the same scope were written before (by an earlier run of the step).
    if (this.scope !== undefined && (await exists(target))) return { key, size: bytes.byteLength, sha256 };
    // Unique per writer: two runs of one step may write the same key at once; the rename is atomic.
    const temp = path.join(this.tempDir, `${key}.${randomUUID()}.tmp`);
    await writeDurably(temp, bytes);
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    await fsyncDir(path.dirname(target));
    return { key, size: bytes.byteLength, sha256 };
  }

  /** Size and SHA-256 of a stored blob (reads it: the hash is not kept on the side). */
  async stat(key: string): Promise<StoredBlob> {
    const bytes = await this.get(key);
    return { key, size: bytes.byteLength, sha256: sha256Hex(bytes) };
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      throw isNotFound(err) ? new BlobNotFoundError(key) : err;
    }
  }

  /** Returns false if there was no such blob. */
  async delete(key: string): Promise<boolean> {
    try {
      await unlink(this.pathOf(key));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /** Every blob with the time it was written, for the retention job; a walk of the folders, not a snapshot. */
  async *list(): AsyncGenerator<ListedBlob> {
    for (const a of await readdir(this.root).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{2}$/.test(a)) continue;
      for (const b of await readdir(path.join(this.root, a)).catch(() => [] as string[])) {
        for (const key of await readdir(path.join(this.root, a, b)).catch(() => [] as string[])) {
          if (!KEY_PATTERN.test(key)) continue;
          const info = await stat(this.pathOf(key)).catch(() => undefined);
          if (info) yield { key, writtenAt: info.mtimeMs };
        }
      }
    }
  }

  private pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new InvalidBlobKeyError(key);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  /** Creates the folders and removes temporary files left by a crash (old ones only: others may be writes in progress). */
  private async prepare(): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
    const olderThan = Date.now() - STALE_TEMP_MS;
    for (const name of await readdir(this.tempDir)) {
      const file = path.join(this.tempDir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && info.mtimeMs < olderThan) await rm(file, { force: true });
    }
  }
}

async function writeDurably(file: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(file, { force: true });
    throw err;
  }
  await handle.close();
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The key of content (its SHA-256) written within a scope: the store's UUID shape, from the first 128 bits of a SHA-256. */
export function scopedKey(scope: string, sha256: string): string {
  const h = createHash('sha256').update(`${scope}\n${sha256}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    (err: unknown) => {
      if (isNotFound(err)) return false;
      throw err;
    },
  );
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function isNotFound(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
