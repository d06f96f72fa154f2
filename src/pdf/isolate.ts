import { Worker } from 'node:worker_threads';
import { PdfInputError } from './structure.js';
import type { TASKS, TaskName, TaskReply, TaskRequest } from './worker.js';

/**
 * Runs pdf-lib / pdfjs-dist work on an untrusted file in a worker thread with its own heap
 * limit and a wall-clock timeout. A file that makes the parser loop, or blow up memory, costs
 * that one thread (and fails that one request with a clear error), never the process that
 * serves everyone else. Only the compiled service uses this (the worker is dist/…/worker.js);
 * tests call the domain functions directly.
 */

export interface IsolationLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

export const DEFAULT_ISOLATION_LIMITS: IsolationLimits = { timeoutMs: 60_000, maxHeapMb: 768 };

type Input<T extends TaskName> = Parameters<(typeof TASKS)[T]>[0];
type Output<T extends TaskName> = Awaited<ReturnType<(typeof TASKS)[T]>>;

export function runIsolated<T extends TaskName>(task: T, input: Input<T>, limits: IsolationLimits = DEFAULT_ISOLATION_LIMITS): Promise<Output<T>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), {
      workerData: { task, input } satisfies TaskRequest,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 64 },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new PdfInputError(`Processing the file took longer than ${limits.timeoutMs / 1000} s and was stopped.`))), limits.timeoutMs);
    worker.on('message', (reply: TaskReply) =>
      settle(() => (reply.ok ? resolve(reply.result as Output<T>) : reject(reply.name === 'PdfInputError' ? new PdfInputError(reply.message) : new Error(reply.message)))),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new PdfInputError(`Processing the file needed more than ${limits.maxHeapMb} MB of memory and was stopped.`) : err)),
    );
    worker.on('exit', (code) => settle(() => reject(new Error(`The PDF worker ended (exit ${code}) without an answer.`))));
  });
}
