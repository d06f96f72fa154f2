import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type WorkflowExecutionDescription } from '@temporalio/client';
import { ACCOUNT, OPERATION } from '../../temporal/search-attributes.js';
import { analyseAsyncOperation, analyseOperation, analyseV1Operation, type DocumentAnalysis } from '../../operations/analysis.js';
import type { WorkflowOf } from '../../operations/operation.js';
import { MAX_FILE_BYTES, storeFile, type FileRules } from '../intake/file.js';
import type { Account, Job } from '../intake/job.js';
import { JobRefusal } from '../intake/refusal.js';
import { runWorkflow, startWorkflow, toRefusal, type StagedRun, type JobDeps } from './run-workflow.js';

/**
 * Invoice analysis, waited for or started as an async job. Both run the analyseInvoiceFile
 * workflow; an async job's id is that workflow's id, so job state lives in Temporal and nowhere else.
 */

const ANY_FILE: FileRules = { maxBytes: MAX_FILE_BYTES, accept: ['pdf', 'png', 'jpeg', 'tiff'] };
const ASYNC_FILE: FileRules = { maxBytes: MAX_FILE_BYTES, accept: ['pdf', 'tiff'] };

/** Results are kept 24 hours after completion (README, Analysis; also the namespace retention). */
const JOB_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Sync analysis: clients are told to wait at least 60 s; multi-page scans take longer. */
const SYNC_TIMEOUT_MS = 300_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AnalysisOrder {
  file: Buffer;
  /** Also read the line items (BG-25). */
  withLineItems: boolean;
}

/** Analyses the file and waits for the result; `operation` tells the V1 and V2 interfaces apart in Temporal. */
export async function analyseFile(
  deps: JobDeps,
  job: Job,
  order: AnalysisOrder & { operation: typeof analyseOperation | typeof analyseV1Operation },
): Promise<DocumentAnalysis> {
  const run = await analysisRun(deps, order, ANY_FILE);
  return discardingOnFailure(deps, run.input.fileBlobKey, () =>
    runWorkflow(deps, job, order.operation, { ...run, timeoutMs: SYNC_TIMEOUT_MS }),
  );
}

/** Starts the analysis of a PDF or TIFF and answers its job id at once; `analysisJob` tells how it went. */
export async function startAnalysis(deps: JobDeps, job: Job, order: AnalysisOrder): Promise<string> {
  const run = await analysisRun(deps, order, ASYNC_FILE);
  const jobId = randomUUID();
  await discardingOnFailure(deps, run.input.fileBlobKey, () =>
    startWorkflow(deps, job, analyseAsyncOperation, { ...run, workflowId: jobId }),
  );
  return jobId;
}

export type AnalysisJobState =
  { status: 'processing' } | { status: 'done'; analysis: DocumentAnalysis } | { status: 'failed'; refusal: JobRefusal };

/**
 * One describe call per poll (plus one history read once the job has closed): no database, no
 * worker involvement, so a client polling every 3 s costs next to nothing. An id that is not a
 * UUID, an unknown job, another account's job and one expired are all NOT_FOUND.
 */
export async function analysisJob(deps: JobDeps, account: Account, id: string): Promise<{ jobId: string; state: AnalysisJobState }> {
  const notFound = () =>
    new JobRefusal('NOT_FOUND', { userMessage: 'There is no such job (the id is unknown, not a UUID, or the result has expired).' });
  if (!UUID.test(id)) throw notFound();
  // A UUID names the same job in either case; the workflow id is the lower-case form startAnalysis made.
  const jobId = id.toLowerCase();
  const handle = deps.temporal.workflow.getHandle<WorkflowOf<typeof analyseAsyncOperation>>(jobId);
  let described: WorkflowExecutionDescription;
  try {
    described = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw notFound();
    throw new JobRefusal('SERVICE_UNAVAILABLE', { detail: `Could not read job ${jobId}: ${(err as Error).message}`, cause: err });
  }
  const attributes = described.typedSearchAttributes;
  const expired = described.closeTime !== undefined && Date.now() - described.closeTime.getTime() > JOB_RETENTION_MS;
  if (attributes.get(OPERATION) !== analyseAsyncOperation.name || attributes.get(ACCOUNT) !== account.accountId || expired)
    throw notFound();
  if (described.status.name === 'RUNNING') return { jobId, state: { status: 'processing' } };
  try {
    return { jobId, state: { status: 'done', analysis: await handle.result() } };
  } catch (err) {
    return { jobId, state: { status: 'failed', refusal: toRefusal(err) } };
  }
}

/** Stores the file for the workflow that analyses it. */
async function analysisRun(deps: JobDeps, order: AnalysisOrder, rules: FileRules): Promise<StagedRun<typeof analyseOperation>> {
  const file = await storeFile(deps.blobs, order.file, rules, deps.limits);
  return {
    input: { fileBlobKey: file.key, fileType: file.type, withLineItems: order.withLineItems },
    summary: `Analyse ${file.type.toUpperCase()} (${order.withLineItems ? 'with' : 'without'} line items)`,
  };
}

/** The upload is deleted by the workflow; when no workflow ran, by us. */
async function discardingOnFailure<T>(deps: JobDeps, key: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof JobRefusal && err.code === 'SERVICE_UNAVAILABLE') await deps.blobs.delete(key).catch(() => undefined);
    throw err;
  }
}
