import type { BlobStorage } from './blob-storage.js';
import { BlobStore } from './blob-store.js';
import { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.js';

export type BlobStorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3BlobStoreOptions);

/** The store the configuration names: the data folder's, or an S3 bucket. */
export function openBlobStorage(config: BlobStorageConfig, dataDir: string): BlobStorage {
  return config.kind === 's3' ? new S3BlobStore(config) : new BlobStore(dataDir);
}
