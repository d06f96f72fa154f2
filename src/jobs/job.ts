import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { BlobStorage } from '../storage/blob-storage.js';
import type { Storage } from '../storage/index.js';
import type { RequestContext } from '../temporal/context.js';
import type { JobSource } from './contracts.js';

/** What the submit functions use; built once at start, shared by every entry point. */
export interface JobDeps {
  temporal: Client;
  taskQueue: string;
  blobs: BlobStorage;
  storage: Storage;
}

/** The account a job is done for and billed to. */
export interface Account {
  accountId: string;
}

/** Who asks, from where, and where the job's own log lines go. */
export interface Job {
  account: Account;
  source: JobSource;
  log: Logger;
}

/**
 * The id of the job's workflow (after the operation) and of its log lines: a request's own id,
 * so an API answer's reference finds both; for a connector's file its route and content, so the
 * same invoice dropped twice, or seen again after a crash, is one workflow (Temporal refuses a
 * second start of a running id).
 */
export function jobId(source: JobSource): string {
  return source.kind === 'request' ? source.requestId : `${source.route}-${source.hash}`;
}

export function jobContext(job: Job, id: string): RequestContext {
  return { requestId: id, accountId: job.account.accountId, source: job.source };
}
