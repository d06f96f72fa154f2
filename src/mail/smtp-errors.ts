import type { NodemailerError } from 'nodemailer';

/**
 * Temporary or permanent? RFC 5321 answers it through the reply code: 4yz is transient (the
 * same message may be accepted later: greylisting, a full queue, a server shutting down), 5yz
 * permanent (unknown mailbox, policy, size). Without a reply, a broken connection, a timeout
 * or a failed DNS lookup is worth another try; a configuration problem (TLS, credentials,
 * an envelope nodemailer refuses) is not, since it fails the same way every time.
 */

const TRANSIENT_WITHOUT_REPLY = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'EPROXY']);

export interface SendFailure {
  temporary: boolean;
  /** The server's reply when there was one, else what went wrong; recorded on the send. */
  response: string;
}

export function classifySendError(err: unknown): SendFailure {
  const e = (err ?? {}) as Partial<NodemailerError>;
  const response = singleLine(e.response ?? e.message ?? String(err));
  if (typeof e.responseCode === 'number') {
    // nodemailer reads the reply class itself (503 "bad sequence" is transient despite its 5).
    const permanent = e.permanent ?? (e.responseCode >= 500 && e.responseCode !== 503);
    return { temporary: !permanent, response: response.startsWith(String(e.responseCode)) ? response : `${e.responseCode} ${response}` };
  }
  return { temporary: TRANSIENT_WITHOUT_REPLY.has(e.code ?? ''), response: e.code ? `${e.code}: ${response}` : response };
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 1000);
}
