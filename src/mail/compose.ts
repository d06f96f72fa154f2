import type { SendMailOptions } from 'nodemailer';
import { domainOf } from './address.js';
import { escapeHtml, htmlToText, looksLikeHtml } from './html-text.js';
import { fillPlaceholders, singleLine, type PlaceholderValues } from './placeholders.js';
import type { AttachmentRef, MailAddress, MailDraft, Recipients } from './types.js';

/** An e-mail as a request asks for it, validated (see schema.ts), before placeholders are filled. */
export interface EmailOrder extends Recipients {
  from: MailAddress;
  subject: string;
  message: string;
  /** Placeholder values given with the request (delivery endpoint `content`). */
  content: PlaceholderValues;
  attachments: Array<{ fileName: string; content: Buffer }>;
}

/**
 * The stored draft of an order: placeholders filled (HTML-escaped inside HTML, single-line
 * inside the subject), and for HTML a text alternative. `values` are the defaults (from the
 * invoice); the request's own `content` wins over them.
 */
export function buildDraft(order: EmailOrder, values: PlaceholderValues, attachments: AttachmentRef[]): MailDraft {
  const all = { ...values, ...order.content };
  const base = {
    from: order.from,
    to: order.to,
    cc: order.cc,
    bcc: order.bcc,
    subject: fillPlaceholders(order.subject, all, singleLine),
    attachments,
  };
  if (!looksLikeHtml(order.message)) return { ...base, text: fillPlaceholders(order.message, all) };
  const html = fillPlaceholders(order.message, all, escapeHtml);
  return { ...base, html, text: htmlToText(html) };
}

/**
 * One Message-ID per send, chosen by the workflow: every attempt of a send carries the same
 * one, so receiving systems that see a message twice (an attempt whose acceptance was never
 * recorded) can recognise the duplicate.
 */
export function messageIdFor(sendId: string, sender: string): string {
  return `<${sendId}@${domainOf(sender)}>`;
}

export interface AttachmentContent {
  fileName: string;
  content: Buffer;
  /** Unset: derived from the file name. */
  contentType?: string;
}

/** The message in nodemailer's terms; the same for SMTP and for the outbox. */
export function composeMessage(draft: MailDraft, attachments: AttachmentContent[], id: { messageId: string; date: Date }): SendMailOptions {
  return {
    messageId: id.messageId,
    date: id.date,
    from: mailbox(draft.from),
    to: draft.to.map(mailbox),
    cc: draft.cc.map(mailbox),
    bcc: draft.bcc.map(mailbox),
    subject: draft.subject,
    text: draft.text,
    ...(draft.html === undefined ? {} : { html: draft.html }),
    attachments: attachments.map((a) => ({
      filename: a.fileName,
      content: a.content,
      ...(a.contentType ? { contentType: a.contentType } : {}),
    })),
  };
}

function mailbox(a: MailAddress): string | { name: string; address: string } {
  return a.name ? { name: a.name, address: a.address } : a.address;
}
