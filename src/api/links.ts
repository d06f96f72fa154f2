import { createHmac } from 'node:crypto';
import { signDownload } from '../auth/signed-url.js';
import type { Services } from './services.js';

/** A signed, expiring link to a stored document: it works without the token, e.g. from an e-mail. */
export function downloadUrl(services: Services, documentId: string): string {
  const expires = Math.floor(Date.now() / 1000) + services.config.downloadUrlTtlSeconds;
  return `${services.config.http.publicBaseUrl}/api/v1/documents/${documentId}/download?${signDownload(documentId, expires, services.signingSecret)}`;
}

/**
 * The resend operation names a created document by this token: the document id
 * with a MAC, so a token cannot be forged to reach another document.
 */
export function resendToken(services: Services, documentId: string): string {
  const mac = createHmac('sha256', services.signingSecret).update(`resend:${documentId}`).digest('base64url');
  return `${documentId}.${mac}`;
}
