import { BlobStore, type StoredBlob } from './blob-store.js';
import { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.js';

/**
 * Where file contents live while workflows pass their keys around: a local folder (one machine,
 * or a shared file system) or an S3-compatible bucket (several machines). Keys are random UUIDs
 * the store makes; any other key is refused before it reaches a path or a request.
 */
export interface BlobStorage {
  put(bytes: Uint8Array): Promise<StoredBlob>;
  get(key: string): Promise<Buffer>;
  /** Size and SHA-256 of a stored blob. */
  stat(key: string): Promise<StoredBlob>;
  /** Returns false if there was no such blob. */
  delete(key: string): Promise<boolean>;
}

export type BlobStorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3BlobStoreOptions);

export function openBlobStorage(config: BlobStorageConfig, dataDir: string): BlobStorage {
  return config.kind === 's3' ? new S3BlobStore(config) : new BlobStore(dataDir);
}
