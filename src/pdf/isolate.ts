import { Worker } from 'node:worker_threads';
import { PdfInputError } from './structure.js';
import type { TASKS, TaskName, TaskReply, TaskRequest } from './worker.js';

/**
 * Runs pdf-lib / pdfjs-dist work on an untrusted file in a worker thread with its own heap
 * limit and a wall-clock timeout. A file that makes the parser loop, or blow up memory, costs
 * that one thread (and fails that one request with a clear error), never the process that
 * serves everyone else. Only the compiled service uses this (the worker is dist/…/worker.js);
 * tests call the domain functions directly.
 *
 * Starting a thread and loading pdf-lib and pdfjs into it takes longer than most tasks, so a
 * thread that answered goes back to a small pool for the next task. A thread that failed, timed
 * out or ran out of memory is ended, never reused; a pooled one ends after RECYCLE_AFTER tasks
 * or IDLE_MS without work, so what a large file left in its heap is given back.
 */

export interface IsolationLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

export const DEFAULT_ISOLATION_LIMITS: IsolationLimits = { timeoutMs: 60_000, maxHeapMb: 768 };

const POOL_SIZE = 4;
const RECYCLE_AFTER = 50;
const IDLE_MS = 30_000;

type Input<T extends TaskName> = Parameters<(typeof TASKS)[T]>[0];
type Output<T extends TaskName> = Awaited<ReturnType<(typeof TASKS)[T]>>;

/** What the thread's listeners hand an event to: the task it runs, if any. */
interface Task {
  message(reply: TaskReply): void;
  error(err: Error & { code?: string }): void;
  exit(code: number): void;
}

interface PooledThread {
  worker: Worker;
  limits: IsolationLimits;
  tasks: number;
  current?: Task;
  idleTimer?: NodeJS.Timeout;
}

const idle: PooledThread[] = [];

function takeThread(limits: IsolationLimits): PooledThread {
  const index = idle.findIndex((t) => t.limits.maxHeapMb === limits.maxHeapMb);
  if (index >= 0) {
    const [thread] = idle.splice(index, 1);
    clearTimeout(thread!.idleTimer);
    thread!.worker.ref();
    return thread!;
  }
  const worker = new Worker(new URL('./worker.js', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 64 },
  });
  const thread: PooledThread = { worker, limits, tasks: 0 };
  // An event without a task is a pooled thread that broke while idle: it leaves the pool.
  worker.on('message', (reply: TaskReply) => thread.current?.message(reply));
  worker.on('error', (err: Error) => (thread.current ? thread.current.error(err) : drop(thread)));
  worker.on('exit', (code) => (thread.current ? thread.current.exit(code) : drop(thread)));
  return thread;
}

/** Threads waiting for their next task (the tests look). */
export function idleThreads(): number {
  return idle.length;
}

function giveBack(thread: PooledThread): void {
  if (thread.tasks >= RECYCLE_AFTER || idle.length >= POOL_SIZE) {
    void thread.worker.terminate();
    return;
  }
  // A pooled thread must not keep the process alive, nor outlive its usefulness.
  thread.worker.unref();
  thread.idleTimer = setTimeout(() => drop(thread), IDLE_MS).unref();
  idle.push(thread);
}

function drop(thread: PooledThread): void {
  const index = idle.indexOf(thread);
  if (index >= 0) idle.splice(index, 1);
  clearTimeout(thread.idleTimer);
  void thread.worker.terminate();
}

export function runIsolated<T extends TaskName>(
  task: T,
  input: Input<T>,
  limits: IsolationLimits = DEFAULT_ISOLATION_LIMITS,
): Promise<Output<T>> {
  return new Promise((resolve, reject) => {
    const thread = takeThread(limits);
    const settle = (fn: () => void, reusable: boolean) => {
      if (!thread.current) return;
      thread.current = undefined;
      clearTimeout(timer);
      if (reusable) giveBack(thread);
      else void thread.worker.terminate();
      fn();
    };
    thread.current = {
      message(reply) {
        thread.tasks++;
        // A file the parser refused leaves a healthy thread; any other failure may not have.
        const reusable = reply.ok || reply.name === 'PdfInputError';
        settle(
          () =>
            reply.ok
              ? resolve(reply.result as Output<T>)
              : reject(reply.name === 'PdfInputError' ? new PdfInputError(reply.message) : new Error(reply.message)),
          reusable,
        );
      },
      error(err) {
        settle(
          () =>
            reject(
              err.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? new PdfInputError(`Processing the file needed more than ${limits.maxHeapMb} MB of memory and was stopped.`)
                : err,
            ),
          false,
        );
      },
      exit(code) {
        settle(() => reject(new Error(`The PDF worker ended (exit ${code}) without an answer.`)), false);
      },
    };
    const timer = setTimeout(
      () =>
        settle(
          () => reject(new PdfInputError(`Processing the file took longer than ${limits.timeoutMs / 1000} s and was stopped.`)),
          false,
        ),
      limits.timeoutMs,
    );
    thread.worker.postMessage({ task, input } satisfies TaskRequest);
  });
}
