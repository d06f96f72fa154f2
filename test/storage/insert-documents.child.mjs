/**
 * Child process of document-numbers.test.ts: opens the database of EINVOICE_DATA_DIR /
 * DATABASE_URL on its own connection(s), waits for the common start time, inserts COUNT
 * documents concurrently and prints their numbers as JSON.
 *
 *   node insert-documents.child.mjs <accountId> <count> <startAtEpochMs>
 *
 * It runs the compiled storage code (`npm run build`), as the service's processes do.
 */
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../dist/src/storage/open-database.js';
import { createDocument } from '../../dist/src/storage/documents.js';

const [accountId = '', count = '0', startAt = '0'] = process.argv.slice(2);
const db = await openDatabase({ dataDir: process.env['EINVOICE_DATA_DIR'] ?? '', databaseUrl: process.env['DATABASE_URL'] || undefined });
try {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
  const docs = await Promise.all(
    Array.from({ length: Number(count) }, () =>
      createDocument(db, {
        accountId,
        kind: 'zugferd-pdf',
        blobKey: randomUUID(),
        fileName: 'a.pdf',
        contentType: 'application/pdf',
        size: 1,
        sha256: 'a'.repeat(64),
      }),
    ),
  );
  process.stdout.write(JSON.stringify(docs.map((d) => d.number)));
} finally {
  await db.close();
}
