import type { BlobStore } from '../storage/blob-store.js';
import type { MailDraft } from './types.js';

/** Drafts are JSON blobs: the API writes them, the send activity and the resend operation read them. */

export async function saveDraft(blobs: BlobStore, draft: MailDraft): Promise<string> {
  return (await blobs.put(Buffer.from(JSON.stringify(draft), 'utf8'))).key;
}

export async function loadDraft(blobs: BlobStore, key: string): Promise<MailDraft> {
  return JSON.parse((await blobs.get(key)).toString('utf8')) as MailDraft;
}
