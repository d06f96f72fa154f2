import { createHash } from 'node:crypto';
import type { KeyGeneration } from '../../storage/idempotency.js';
import type { JobDeps } from './run-workflow.js';
import type { KeyedRun } from '../intake/job.js';
import { JobRefusal, type RefusalCode } from '../intake/refusal.js';

/**
 * Idempotency-Key: one request, one result, however often the client sends it and whichever
 * process dies meanwhile. The key belongs to a workflow, not to a lock: its id is derived from
 * the account, the key and the key's generation (storage/idempotency.ts), and Temporal's id
 * policies (run-workflow.ts) make a retry join the running workflow or take the finished one's
 * result. The database keeps what the key means (the request's hash: another body is a
 * conflict) and, once given, the answer, so that a replay is the same answer byte for byte.
 */

/** Answers are kept 24 hours (README, Idempotency-Key). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotentRequest {
  accountId: string;
  key: string;
  /** What makes two requests the same: the operation and the validated body (requestHash()). */
  requestHash: string;
}

export interface IdempotentAnswer<T> {
  value: T;
  /** True when the answer was given before (or by a concurrent request). */
  reused: boolean;
}

/**
 * Runs `execute` as the key's work, or answers what it answered before. `execute` gets the
 * dependencies to use (blobs staged for the key are written once, by content) and the keyed
 * run to put on its job. Its value is kept as the answer and must be JSON.
 */
export async function idempotent<T>(
  deps: JobDeps,
  request: IdempotentRequest,
  execute: (deps: JobDeps, keyed: KeyedRun) => Promise<T>,
): Promise<IdempotentAnswer<T>> {
  const store = deps.storage.idempotency;
  const claim = await store.claim({ ...request, ttlMs: IDEMPOTENCY_TTL_MS });
  if (claim.outcome === 'mismatch') throw new JobRefusal('IDEMPOTENCY_CONFLICT');
  if (claim.outcome === 'completed') return { value: claim.record.response as T, reused: true };
  const generation: KeyGeneration = { ...request, createdAt: claim.record.createdAt };
  const keyed: KeyedRun = { id: keyedRunId(generation), answered: false, afterAnswer: [] };
  let value: T;
  try {
    value = await execute({ ...deps, blobs: deps.blobs.scoped(`key-${keyed.id}`) }, keyed);
  } catch (err) {
    // A concurrent request with the key may have answered meanwhile (and deleted what we read).
    const kept = await keptAnswer<T>(deps, generation);
    if (kept) return kept;
    if (!keyed.answered && err instanceof JobRefusal && refusedForGood(err.code)) await store.release(generation);
    throw err;
  }
  const first = await store.complete({ ...generation, response: value });
  const answer = first ? { value, reused: false } : ((await keptAnswer<T>(deps, generation)) ?? { value, reused: false });
  for (const step of keyed.afterAnswer) await step();
  return answer;
}

/** The hash of a request: the operation and the value with sorted keys, so formatting and key order do not make it "different". */
export function requestHash(operation: string, value: unknown): string {
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(value)}`)
    .digest('hex');
}

/**
 * The request cannot succeed as sent (its input, a template, a sender): forget the key, so the
 * client may correct the request and send it under the same key. A timeout, an unavailable
 * Temporal or an internal error say nothing about the request: the key keeps its meaning.
 */
const refusedForGood = (code: RefusalCode) =>
  !(['UPSTREAM_TIMEOUT', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR', 'IDEMPOTENCY_IN_PROGRESS'] as RefusalCode[]).includes(code);

async function keptAnswer<T>(deps: JobDeps, generation: KeyGeneration): Promise<IdempotentAnswer<T> | undefined> {
  const record = await deps.storage.idempotency.lookup(generation.accountId, generation.key);
  return record?.state === 'done' && record.createdAt === generation.createdAt ? { value: record.response as T, reused: true } : undefined;
}

function keyedRunId(g: KeyGeneration): string {
  return createHash('sha256').update(`${g.accountId}\n${g.key}\n${g.createdAt}`).digest('hex').slice(0, 32);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
