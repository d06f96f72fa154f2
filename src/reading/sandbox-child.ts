/**
 * The sandbox process: loads the reader, says it is ready, then opens one
 * untrusted document and renders the pages the parent asks for, one at a time,
 * and is killed. See sandbox.ts for the limits it runs under, and
 * sandbox-protocol.ts for the messages.
 */
import { preloadPdfJs } from '../pdf/pdfjs.js';
import { openDocument, type DocumentReader } from './document-reader.js';
import type { ChildMessage, ParentMessage } from './sandbox-protocol.js';

const send = (message: ChildMessage) => process.send!(message);
const describe = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

let reader: Promise<DocumentReader> | undefined;

process.on('message', (message: ParentMessage) => {
  if (message.kind === 'open') {
    reader = openDocument(message.bytes, message.type);
    reader.then(
      (r) => send({ kind: 'opened', outline: r.outline }),
      (err: unknown) => send({ kind: 'failed', message: describe(err) }),
    );
    return;
  }
  reader!
    .then((r) => r.render(message.page))
    .then(
      (bitmap) => send({ kind: 'rendered', page: message.page, bitmap }),
      (err: unknown) => send({ kind: 'failed', message: describe(err) }),
    );
});

// The parent going away (it finished, or it died) ends the sandbox too.
process.on('disconnect', () => process.exit(0));

// Every PDF is read with pdfjs: it is loaded while the child waits, not once the document is there.
await preloadPdfJs();
send({ kind: 'ready' });
