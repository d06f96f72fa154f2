import { parentPort } from 'node:worker_threads';
import { withoutEmptyAppearances } from './annotations.js';
import { embedInvoiceXml } from './embed.js';
import { withoutSimpleFontPrograms } from './fonts.js';
import { imagesToPdf } from './images.js';
import { inspectPdf } from './inspect.js';

/**
 * Entry point of the worker thread in which isolate.ts runs pdf-lib and pdfjs-dist on untrusted
 * files: one task at a time, each result posted back; isolate.ts decides when the thread ends.
 */

export const TASKS = {
  inspect: (input: { bytes: Uint8Array; withText: boolean }) => inspectPdf(input.bytes, { withText: input.withText }),
  embed: embedInvoiceXml,
  images: (input: { bytes: Uint8Array; type: 'png' | 'jpeg' | 'tiff' }) => imagesToPdf(input.bytes, input.type),
  unembedFonts: (input: { bytes: Uint8Array }) => withoutSimpleFontPrograms(input.bytes),
  dropEmptyAppearances: (input: { bytes: Uint8Array }) => withoutEmptyAppearances(input.bytes),
};

export type TaskName = keyof typeof TASKS;

export interface TaskRequest {
  task: TaskName;
  input: unknown;
}

export type TaskReply = { ok: true; result: unknown } | { ok: false; name: string; message: string };

if (parentPort) {
  const port = parentPort;
  port.on('message', ({ task, input }: TaskRequest) => {
    (TASKS[task] as (input: unknown) => Promise<unknown>)(input).then(
      (result) => port.postMessage({ ok: true, result } satisfies TaskReply),
      (err: unknown) =>
        port.postMessage({
          ok: false,
          name: err instanceof Error ? err.name : 'Error',
          message: err instanceof Error ? err.message : String(err),
        } satisfies TaskReply),
    );
  });
}
