import type { Word } from './page-text.js';

/** A page waiting for an OCR engine, with the caller's promise and its way out. */
export interface QueuedPage<T> {
  page: T;
  signal: AbortSignal | undefined;
  resolve(words: Word[]): void;
  reject(err: unknown): void;
  onAbort(): void;
}

/**
 * Queues a page for `dispatch` to hand to an engine. A caller that gives up while the page
 * still waits takes it out of the queue; once dispatched, `take` detaches that listener.
 */
export function enqueuePage<T>(
  queue: Array<QueuedPage<T>>,
  page: T,
  signal: AbortSignal | undefined,
  dispatch: () => void,
): Promise<Word[]> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<Word[]>((resolve, reject) => {
    const job: QueuedPage<T> = {
      page,
      signal,
      resolve,
      reject,
      onAbort: () => {
        const at = queue.indexOf(job);
        if (at >= 0) queue.splice(at, 1);
        reject(signal!.reason);
      },
    };
    signal?.addEventListener('abort', job.onAbort, { once: true });
    queue.push(job);
    dispatch();
  });
}

/** The next page for an engine, no longer withdrawable. */
export function takePage<T>(queue: Array<QueuedPage<T>>): QueuedPage<T> | undefined {
  const job = queue.shift();
  job?.signal?.removeEventListener('abort', job.onAbort);
  return job;
}
