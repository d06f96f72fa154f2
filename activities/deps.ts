import type { Logger } from 'pino';
import type { BlobStorage } from '../src/storage/blob-storage.js';
import type { Storage } from '../src/storage/index.js';
import type { MailTransport } from '../src/mail/transport.js';
import type { TestFault } from '../src/mail/types.js';

/** Where the mail activities send, and (tests only) which faults they inject. */
export interface MailDeps {
  transport: MailTransport;
  testFaults: readonly TestFault[];
}

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
