import type { RetentionReport } from '../operations/retention.js';
import { exampleBlobKeys } from './labelled-examples.js';
import { forgetExpiredReviewFiles, keptReviewFiles } from './review-files.js';
import { loadDraft } from './mail-drafts.js';
import type { BlobStorage } from './blob-storage.js';
import type { Storage } from './index.js';

/**
 * What the service promises to forget, and when (README "Guarantees"). The retention workflow
 * runs this every hour (a Temporal Schedule); every step is safe to repeat, so a run that dies
 * half-way is finished by the next.
 *
 * - Idempotency keys and their kept answers: 24 hours after the first request.
 * - Documents whose expiry has passed: the record, its file and the stored messages of its sends.
 * - A send's stored message (draft) once it cannot be needed: 24 hours after the send ended,
 *   except the first send of a document, which the resend operation repeats for as long as the
 *   document exists. The send record itself stays (it is the account's send history).
 * - Labelled examples from the review queue: until the account removes them (`examples remove`).
 * - The upload of a refused API conversion in the review queue: until its entry's time is up.
 * - Files nothing refers to (the stored upload of a crashed request, the intermediate file of a
 *   workflow that died, the attachments of removed messages): 48 hours after they were written,
 *   when no workflow can still be using them (mail is retried for 24 hours at most).
 *
 * Async analysis results are workflow results: Temporal forgets them 24 hours after they closed
 * (namespace retention), and the status endpoint answers NOT_FOUND from then on.
 */

export const RETENTION = {
  finishedDraftMs: 24 * 60 * 60 * 1000,
  unreferencedBlobMs: 48 * 60 * 60 * 1000,
} as const;

export async function applyRetention(storage: Storage, blobs: BlobStorage, now = Date.now()): Promise<RetentionReport> {
  const report: RetentionReport = { idempotencyKeys: await storage.idempotency.deleteExpired(now), documents: 0, drafts: 0, blobs: 0 };
  const { db } = storage;

  const { rows: expired } = await db.query<{ id: string; blob_key: string }>(
    'SELECT id, blob_key FROM documents WHERE expires_at IS NOT NULL AND expires_at <= $1',
    [now],
  );
  for (const doc of expired) {
    await db.query('UPDATE mail_sends SET draft_removed_at = $2 WHERE document_id = $1 AND draft_removed_at IS NULL', [doc.id, now]);
    await db.query('DELETE FROM documents WHERE id = $1', [doc.id]);
    await blobs.delete(doc.blob_key);
    report.documents++;
  }

  // Drafts no send will read again: finished a day ago, and not the first send of a document.
  const { rows: finished } = await db.query<{ id: string; draft_key: string }>(
    `SELECT id, draft_key FROM mail_sends
     WHERE draft_removed_at IS NULL AND status IN ('sent', 'failed') AND updated_at <= $1 AND (document_id IS NULL OR resend_of IS NOT NULL)`,
    [now - RETENTION.finishedDraftMs],
  );
  for (const send of finished) await db.query('UPDATE mail_sends SET draft_removed_at = $2 WHERE id = $1', [send.id, now]);

  // What a document or a kept draft refers to stays (an unchanged resend shares its original's draft, a changed one its attachments).
  const referenced = new Set<string>();
  const { rows: documents } = await db.query<{ blob_key: string }>('SELECT blob_key FROM documents');
  for (const d of documents) referenced.add(d.blob_key);
  for (const key of await exampleBlobKeys(db)) referenced.add(key);
  await forgetExpiredReviewFiles(db, now);
  for (const key of await keptReviewFiles(db, now)) referenced.add(key);
  const { rows: kept } = await db.query<{ draft_key: string }>('SELECT DISTINCT draft_key FROM mail_sends WHERE draft_removed_at IS NULL');
  for (const { draft_key: key } of kept) {
    referenced.add(key);
    for (const a of (await loadDraft(blobs, key).catch(() => undefined))?.attachments ?? []) referenced.add(a.blobKey);
  }
  for (const key of new Set(finished.map((f) => f.draft_key))) {
    if (referenced.has(key)) continue;
    const draft = await loadDraft(blobs, key).catch(() => undefined);
    for (const a of draft?.attachments ?? []) if (!referenced.has(a.blobKey)) await blobs.delete(a.blobKey);
    if (await blobs.delete(key)) report.drafts++;
  }

  // The rest nothing refers to, once no workflow can still be using it.
  for await (const blob of blobs.list()) {
    if (referenced.has(blob.key) || now - blob.writtenAt < RETENTION.unreferencedBlobMs) continue;
    if (await blobs.delete(blob.key)) report.blobs++;
  }
  return report;
}
