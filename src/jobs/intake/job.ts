import type { Logger } from 'pino';
import type { IntakeLimits } from '../../files/declared-size.js';
import type { BlobStorage } from '../../storage/blob-storage.js';
import type { Storage } from '../../storage/index.js';
import type { JobSource, RequestContext } from '../../operations/context.js';

/** What the intake steps use: the stores and the limits of an upload. Activities get no more of the job layer than this. */
export interface IntakeDeps {
  blobs: BlobStorage;
  storage: Storage;
  /** What an uploaded file may declare (pages, pixels, inflated size); default DEFAULT_INTAKE_LIMITS. */
  limits?: IntakeLimits;
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
  /** Set for a request with an Idempotency-Key (src/jobs/submit/idempotency.ts): its workflow is the key's. */
  keyed?: KeyedRun;
}

/** The part of an idempotent request the job layer needs. */
export interface KeyedRun {
  /** Names the key's workflow (`<operation>-key-<id>`) and scopes the blobs the job stages for it. */
  id: string;
  /** Set once the key's workflow has answered: what follows must never run the work again. */
  answered: boolean;
  /** Steps that must wait until the answer is kept for replay (deleting what existed only to be answered). */
  afterAnswer: Array<() => Promise<void>>;
}

/** Runs `step` once the job's answer is safe: at once, or for a keyed request after its answer is kept. */
export async function afterAnswer(job: Job, step: () => Promise<void>): Promise<void> {
  if (job.keyed) job.keyed.afterAnswer.push(step);
  else await step();
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

export function jobContext(job: Pick<Job, 'account' | 'source'>, id: string): RequestContext {
  return { requestId: id, accountId: job.account.accountId, source: job.source };
}
