import type { BlobStorage, ListedBlob } from './blob-storage.js';
import type { StoredBlob } from './blob-storage.js';

/**
 * The blobs this process wrote lately, kept in memory beside the store: a request's steps run in
 * the process that took it (local activities, eager start), and each reads what the previous one
 * wrote (the invoice JSON, the XML to validate, to record, to answer with). With this, a request
 * writes each blob once and reads none back from the disk or the bucket; a step that runs on
 * another worker reads the store as before.
 *
 * Safe because a key never names other bytes: keys are random, or derived from the content.
 * Bounded: blobs over `maxBlobBytes` are not kept, and the oldest go once `maxBytes` is reached.
 */

export interface RecentBlobLimits {
  maxBytes: number;
  maxBlobBytes: number;
}

export const DEFAULT_RECENT_BLOBS: RecentBlobLimits = { maxBytes: 64 * 1024 * 1024, maxBlobBytes: 4 * 1024 * 1024 };

interface Kept {
  bytes: Buffer;
  stored: StoredBlob;
}

class RecentBlobs {
  /** Insertion order is age: a Map iterates oldest first. */
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly limits: RecentBlobLimits) {}

  remember(bytes: Uint8Array, stored: StoredBlob): void {
    if (bytes.byteLength > this.limits.maxBlobBytes || this.kept.has(stored.key)) return;
    this.kept.set(stored.key, { bytes: Buffer.from(bytes), stored });
    this.bytes += bytes.byteLength;
    for (const [key, oldest] of this.kept) {
      if (this.bytes <= this.limits.maxBytes) break;
      this.kept.delete(key);
      this.bytes -= oldest.bytes.byteLength;
    }
  }

  recall(key: string): Kept | undefined {
    return this.kept.get(key);
  }

  forget(key: string): void {
    const kept = this.kept.get(key);
    if (!kept) return;
    this.kept.delete(key);
    this.bytes -= kept.bytes.byteLength;
  }
}

class RememberingStore implements BlobStorage {
  constructor(
    private readonly store: BlobStorage,
    private readonly recent: RecentBlobs,
  ) {}

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const stored = await this.store.put(bytes);
    this.recent.remember(bytes, stored);
    return stored;
  }

  scoped(scope: string): BlobStorage {
    return new RememberingStore(this.store.scoped(scope), this.recent);
  }

  async get(key: string): Promise<Buffer> {
    // A copy: the caller may change its buffer.
    const kept = this.recent.recall(key);
    return kept ? Buffer.from(kept.bytes) : this.store.get(key);
  }

  async stat(key: string): Promise<StoredBlob> {
    return this.recent.recall(key)?.stored ?? this.store.stat(key);
  }

  async delete(key: string): Promise<boolean> {
    this.recent.forget(key);
    return this.store.delete(key);
  }

  list(): AsyncIterable<ListedBlob> {
    return this.store.list();
  }
}

export function withRecentBlobs(store: BlobStorage, limits: RecentBlobLimits = DEFAULT_RECENT_BLOBS): BlobStorage {
  return new RememberingStore(store, new RecentBlobs(limits));
}
