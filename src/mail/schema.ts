import { z } from 'zod';
import { JsonNumber } from '../invoice/decimal.js';
import { hasControlCharacters, hasEncodedWord, parseAddressList } from './address.js';
import type { EmailOrder } from './compose.js';
import { contentPlaceholders } from './placeholders.js';
import type { MailAddress } from './types.js';

/**
 * The transport object (docs/email.md), for the create endpoints (`transportSchema`) and, nested
 * under `transport.email`, for the delivery endpoint (`deliveryTransportSchema`). Both parse
 * into the same `TransportOrder`, so everything after the request boundary is shared.
 *
 * Header injection is refused here: no line break or control character in any field that
 * becomes a header (addresses, names, subject, attachment names). Placeholder values are
 * made single-line when they are filled into the subject (placeholders.ts).
 */

export const LIMITS = {
  /** To, Cc and Bcc together. */
  recipients: 50,
  attachments: 20,
  /** Decoded bytes of one attachment of the request. */
  attachmentBytes: 10 * 1024 * 1024,
  /** Decoded bytes of all attachments of one message, the created document included: keeps it under the common 25 MB server limit once base64-encoded. */
  messageAttachmentBytes: 15 * 1024 * 1024,
} as const;

export type TransportOrder = { useTransport: false } | { useTransport: true; email: EmailOrder };

const NO_CONTROLS = 'must not contain line breaks or control characters';
const NO_ENCODED_WORDS = 'must not contain RFC 2047 encoded words (=?charset?B?…?=); send the text itself, it is encoded as needed';

const headerText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !hasControlCharacters(v), NO_CONTROLS)
    .refine((v) => !hasEncodedWord(v), NO_ENCODED_WORDS);

/** A comma-separated address list, parsed into addresses (the resend operation uses it too). */
export const addressList = z
  .string()
  .max(20_000)
  .transform((value, ctx) => {
    const parsed = parseAddressList(value);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  });

const listDescription = (what: string) => `${what}: comma-separated addresses, each \`name@domain\` or \`Name <name@domain>\``;

const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;

const attachmentSchema = z
  .object({
    fileName: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200)
      .refine((v) => !hasControlCharacters(v), NO_CONTROLS)
      .refine((v) => !hasEncodedWord(v), NO_ENCODED_WORDS)
      .refine((v) => !/[/\\]/.test(v), 'must be a file name, not a path')
      .meta({ description: 'File name shown in the e-mail' }),
    fileBase64: z
      .string()
      .transform((v) => v.replace(DATA_URL_PREFIX, '').replace(/\s+/g, ''))
      .pipe(z.base64('must be base64').min(1, 'must not be empty'))
      .transform((v) => Buffer.from(v, 'base64'))
      .meta({ description: `File content, base64; at most ${LIMITS.attachmentBytes / 1024 / 1024} MiB decoded` }),
  })
  .strict();

/** The e-mail fields both forms share; which are required depends on the form, so all are optional here. */
const emailFields = {
  sender: addressList.meta({ description: 'Sender address; the operator decides which addresses an account may use' }).optional(),
  senderName: headerText(200).meta({ description: 'Display name of the sender' }).optional(),
  receiver: addressList.meta({ description: listDescription('Recipients') }).optional(),
  cc: addressList.meta({ description: listDescription('Copy recipients') }).optional(),
  bcc: addressList.meta({ description: listDescription('Blind copy recipients (not visible to the others)') }).optional(),
  subject: headerText(998).meta({ description: 'Subject; placeholders such as {invoicenumber} are filled' }).optional(),
  message: z
    .string()
    .max(1_000_000)
    .meta({ description: 'Body: plain text, or a full HTML document (sent with a plain-text alternative); placeholders are filled' })
    .optional(),
  attachments: z.array(attachmentSchema).max(LIMITS.attachments).meta({ description: 'Further files to attach' }).optional(),
};

type EmailFields = { [K in keyof typeof emailFields]?: z.output<(typeof emailFields)[K]> };

/** With `useTransport: true` a message needs a sender, at least one receiver, a subject and a message. */
function checkEmail(fields: EmailFields, ctx: z.RefinementCtx, path: PropertyKey[]): void {
  for (const name of ['sender', 'receiver', 'subject', 'message'] as const) {
    const value = fields[name];
    if (value === undefined || (Array.isArray(value) ? value.length === 0 : value.trim() === '')) {
      ctx.addIssue({ code: 'custom', path: [...path, name], message: 'required when useTransport is true' });
    }
  }
  if (fields.sender && fields.sender.length > 1)
    ctx.addIssue({ code: 'custom', path: [...path, 'sender'], message: 'must be one address' });
  const count = (fields.receiver?.length ?? 0) + (fields.cc?.length ?? 0) + (fields.bcc?.length ?? 0);
  if (count > LIMITS.recipients)
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'receiver'],
      message: `at most ${LIMITS.recipients} recipients (receiver, cc and bcc together)`,
    });
}

function toOrder(fields: EmailFields, content: Record<string, string> = {}): EmailOrder {
  const sender = fields.sender![0]!;
  const from: MailAddress = { address: sender.address, name: fields.senderName?.trim() || sender.name };
  return {
    from,
    to: fields.receiver!,
    cc: fields.cc ?? [],
    bcc: fields.bcc ?? [],
    subject: fields.subject!,
    message: fields.message!,
    content: contentPlaceholders(content),
    attachments: (fields.attachments ?? []).map((a) => ({ fileName: a.fileName, content: a.fileBase64 })),
  };
}

const typeField = z.literal('email').meta({ description: "Currently only 'email'" });
const useTransportField = z.boolean().meta({ description: 'true: send the e-mail; false: nothing is sent' });

/** `transport` of the create endpoints. The created document is attached to the e-mail. */
export const transportSchema = z
  .object({ type: typeField, useTransport: useTransportField, ...emailFields })
  .strict()
  .superRefine((t, ctx) => {
    if (t.useTransport) checkEmail(t, ctx, []);
  })
  .transform((t): TransportOrder => (t.useTransport ? { useTransport: true, email: toOrder(t) } : { useTransport: false }))
  .meta({
    description:
      'Sends the created document by e-mail in the same call. Subject and message may use {invoicenumber}, {invoicedate} and {lastname}.',
  });

const PLACEHOLDER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

const contentSchema = z
  .record(
    z.string(),
    z.union([z.string().max(10_000), z.number(), z.boolean(), z.instanceof(JsonNumber).transform((n) => n.text)]).transform(String),
  )
  .superRefine((content, ctx) => {
    const names = Object.keys(content);
    if (names.length > 100) ctx.addIssue({ code: 'custom', message: 'at most 100 placeholders' });
    for (const name of names.filter((n) => !PLACEHOLDER_NAME.test(n))) {
      ctx.addIssue({ code: 'custom', path: [name], message: 'placeholder names are 1 to 64 letters, digits, _ . and -' });
    }
  })
  .meta({ description: 'Placeholder values: the key `invoicedate` fills {invoicedate}; any names are allowed' });

/** `transport` of the delivery endpoint: the e-mail fields sit under `transport.email`. */
export const deliveryTransportSchema = z
  .object({
    type: typeField,
    useTransport: useTransportField,
    email: z
      .object({ ...emailFields, content: contentSchema.optional() })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (!t.useTransport) return;
    if (t.email) checkEmail(t.email, ctx, ['email']);
    else ctx.addIssue({ code: 'custom', path: ['email'], message: 'required when useTransport is true' });
  })
  .transform((t): TransportOrder =>
    t.useTransport ? { useTransport: true, email: toOrder(t.email!, t.email!.content) } : { useTransport: false },
  );

/** A send as the API shows it (records endpoint, and the outcome in responses). */
export const sendRecordSchema = z.object({
  sendId: z.uuid(),
  status: z.enum(['queued', 'sending', 'sent', 'failed']).meta({
    description:
      'queued: not accepted yet (temporary failures are retried); sending: under way; sent: accepted by the server or written to the outbox; failed: refused for good',
  }),
  via: z.enum(['smtp', 'outbox']),
  documentId: z.uuid().nullable().meta({ description: 'The attached document, for sends of the create endpoints and resends' }),
  resendOf: z.uuid().nullable().meta({ description: 'The send this one repeats' }),
  messageId: z.string().meta({ description: 'Message-ID header; the same on every attempt of this send' }),
  sender: z.string(),
  receiver: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  attempts: z.int().meta({ description: 'SMTP transactions started' }),
  response: z.string().nullable().meta({ description: "The server's last reply, or the outbox file name" }),
  accepted: z.array(z.string()),
  rejected: z.array(z.string()).meta({ description: 'Recipients the server refused while accepting the others' }),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
});

/** What happened to the e-mail of a request. */
export const mailResultSchema = z.object({
  status: z.enum(['sent', 'queued', 'failed', 'skipped']).meta({
    description:
      'sent: accepted by the mail server (or written to the outbox); queued: not accepted yet, still being retried; failed: not sent; skipped: useTransport was false',
  }),
  message: z.string(),
  send: sendRecordSchema.optional().meta({ description: 'The send record; absent when skipped' }),
});

export type MailResult = z.infer<typeof mailResultSchema>;
export type SendRecordView = z.infer<typeof sendRecordSchema>;
