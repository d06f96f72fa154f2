import type { BlobStorage } from './blob-storage.js';
import type { MailDraft } from '../mail/types.js';

/** Drafts are JSON blobs: the API writes them, the send activity and the resend operation read them. */

export async function saveDraft(blobs: BlobStorage, draft: MailDraft): Promise<string> {
  return (await blobs.put(Buffer.from(JSON.stringify(draft), 'utf8'))).key;
}

export async function loadDraft(blobs: BlobStorage, key: string): Promise<MailDraft> {
  return JSON.parse((await blobs.get(key)).toString('utf8')) as MailDraft;
}
