import type { Logger } from 'pino';
import type { BlobStorage } from '../src/storage/blob-storage.js';
import type { Storage } from '../src/storage/index.js';
import type { MailDeps } from './mail.js';

/** What activities may touch: the blob store, the metadata database, a logger, the mail transport. */
export interface ActivityDeps {
  blobs: BlobStorage;
  storage: Storage;
  log: Logger;
  mail: MailDeps;
  /** SOURCE_DATE_EPOCH: the creation time of every built document (reproducible builds); unset: see activities/step.ts. */
  documentTime?: Date;
  /** CONVERSION_SCAN_CERTAINTY; unset: SCAN_CERTAINTY of src/conversion/convertible.ts. */
  scanCertainty?: number;
}
