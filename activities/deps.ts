import type { Logger } from 'pino';
import type { BlobStore } from '../src/storage/blob-store.js';
import type { Storage } from '../src/storage/index.js';
import type { MailDeps } from './mail.js';

/** What activities may touch: the blob store, the metadata database, a logger, the mail transport. */
export interface ActivityDeps {
  blobs: BlobStore;
  storage: Storage;
  log: Logger;
  mail: MailDeps;
}
