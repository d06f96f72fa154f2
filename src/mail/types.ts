/**
 * The e-mail delivery vocabulary shared by the API, the workflows and the activities.
 * Workflows import these as types only: nothing here may pull Node modules into the bundle.
 */

export interface MailAddress {
  /** Lower-case domain (IDN in ASCII form); the local part as written. */
  address: string;
  /** Display name; empty when none was given. */
  name: string;
}

export interface Recipients {
  to: MailAddress[];
  cc: MailAddress[];
  bcc: MailAddress[];
}

/** A file the message carries, kept in the blob store. */
export interface AttachmentRef {
  fileName: string;
  blobKey: string;
  size: number;
}

/**
 * Everything the message says, with placeholders already filled: stored as a JSON blob by the
 * API, so neither addresses nor text travel through workflow history, and kept so that a
 * resend repeats exactly this message. The created document is not in it: the send record
 * names the document, and its bytes are attached at send time.
 */
export interface MailDraft extends Recipients {
  from: MailAddress;
  subject: string;
  /** The plain-text body; for an HTML message the text alternative derived from it. */
  text: string;
  /** Set when the message was written as HTML. */
  html?: string;
  attachments: AttachmentRef[];
}

/** What a workflow needs to send a message: a reference to its draft. */
export interface MailRequest {
  draftKey: string;
  /** The send this one repeats (resend operation). */
  resendOf?: string;
}

/**
 * The send record's life: `queued` (recorded, not yet accepted; temporary failures keep it
 * here while they are retried), `sending` (an SMTP transaction is under way), `sent` (the
 * server accepted the message, or it was written to the outbox), `failed` (refused for good,
 * or temporary failures outlasted the retries).
 */
export type SendStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** `smtp`: the configured server; `outbox`: an .eml file in the outbox folder (no server configured). */
export type TransportKind = 'smtp' | 'outbox';

/** What a workflow reports about one send; the API reads the details from its record. */
export interface MailOutcome {
  sendId: string;
  /** `queued`: not finished within the wait of the request; it goes on in the background. */
  status: 'sent' | 'failed' | 'queued';
}

/** Why a send failed, as stored on its record. */
export interface SendError {
  /** `SMTP_REJECTED`, `SMTP_UNAVAILABLE`, `MAIL_TOO_LARGE`, `MAIL_CONTENT_MISSING` or `INTERNAL_ERROR`. */
  code: string;
  message: string;
}

/** Faults the service can be told to inject, for tests only (EINVOICE_TEST_FAULTS). */
export const TEST_FAULTS = ['mail-after-accept'] as const;
export type TestFault = (typeof TEST_FAULTS)[number];
