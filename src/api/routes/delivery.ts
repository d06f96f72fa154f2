import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { deliveryOperation, resendOperation } from '../../operations/mail.js';
import { sendView } from '../../jobs/intake/mail.js';
import { resendEmail, sendEmail } from '../../jobs/submit/mail.js';
import { addressList, deliveryTransportSchema, mailResultSchema, sendRecordSchema, type MailResult } from '../../mail/schema.js';
import { InvalidCursorError } from '../../storage/keyset.js';
import { errorResponses } from '../common-responses.js';
import { ApiError } from '../errors.js';
import { resendToken } from '../links.js';
import { idempotencyHeaders, oncePerKey } from '../idempotency.js';
import { defineRoute } from '../route.js';
import type { Services } from '../services.js';

/** E-mail: the delivery endpoint, the resend operation and the list of sends (the jobs are in src/jobs/submit/mail.ts). */

/** The resend token is `<documentId>.<MAC>` (links.ts); the document id if the MAC is right. */
function documentOfResendToken(services: Services, token: string): string | undefined {
  const id = token.slice(0, token.indexOf('.'));
  if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
  const expected = Buffer.from(resendToken(services, id));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
}

/** The answer is 202 while the e-mail is still being retried. */
const answer = (result: MailResult) => ({ status: result.status === 'queued' ? 202 : 200, body: result });

/** 200 and 202 of one operation share a schema object; each operation needs its own (one OpenAPI component per operation). */
const mailResponses = (schema: typeof mailResultSchema) => ({
  200: {
    description: 'The e-mail was sent (`sent`), not sent (`failed`), or there was nothing to do (`skipped`)',
    schema,
    headers: idempotencyHeaders.response,
  },
  202: {
    description: 'The mail server has not accepted the e-mail yet (`queued`); it is retried in the background',
    schema,
    headers: idempotencyHeaders.response,
  },
});

export function deliveryRoutes(services: Services) {
  return [deliveryRoute(services), resendRoute(services), sendsRoute(services)];
}

function deliveryRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/delivery',
    operationId: deliveryOperation.name,
    summary: 'Send an e-mail without creating a document',
    description:
      'Sends an e-mail with the given attachments. Placeholders in subject and message are filled from `transport.email.content`. With `useTransport: false` nothing is sent and the answer says so.',
    tags: ['E-mail'],
    auth: 'bearer',
    body: z.object({ transport: deliveryTransportSchema }).strict(),
    headers: idempotencyHeaders.request,
    responses: {
      ...mailResponses(mailResultSchema.meta({ description: 'What happened to the e-mail' })),
      ...errorResponses(400, 401, 403, 413, 415, 503, 504),
    },
    handle: ({ body, principal, request }) =>
      oncePerKey(services, principal, request, { operation: deliveryOperation.name, body }, async (services, job) =>
        answer(await sendEmail(services, job, body.transport)),
      ),
  });
}

function resendRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/delivery/resend',
    operationId: resendOperation.name,
    summary: 'Send the e-mail of a created document again',
    description:
      'Sends the e-mail that a create endpoint sent with its document once more: same sender, subject, message and attachments, the document attached again, a new Message-ID. Each of receiver, cc and bcc, when given, replaces the original list (an empty string empties it).',
    tags: ['E-mail'],
    auth: 'bearer',
    body: z
      .object({
        resendToken: z.string().min(1).max(200).meta({ description: 'The resendToken a create endpoint returned' }),
        receiver: addressList.optional().meta({ description: 'Other recipients instead of the original ones' }),
        cc: addressList.optional(),
        bcc: addressList.optional(),
      })
      .strict(),
    headers: idempotencyHeaders.request,
    responses: {
      ...mailResponses(mailResultSchema.meta({ description: 'What happened to the repeated e-mail' })),
      ...errorResponses(400, 401, 403, 404, 409, 503, 504),
    },
    async handle({ body, principal, request }) {
      const documentId = documentOfResendToken(services, body.resendToken);
      if (!documentId) throw new ApiError('RESEND_TOKEN_INVALID');
      return oncePerKey(services, principal, request, { operation: resendOperation.name, body }, async (services, job) =>
        answer(await resendEmail(services, job, { documentId, receiver: body.receiver, cc: body.cc, bcc: body.bcc })),
      );
    },
  });
}

function sendsRoute(services: Services) {
  return defineRoute({
    method: 'GET',
    path: '/api/v1/delivery/sends',
    operationId: 'listEmailSends',
    summary: "List the account's e-mail sends, newest first",
    description:
      'Every send of the create endpoints, the delivery endpoint and the resend operation: recipients, subject, status, the server response and times.',
    tags: ['E-mail'],
    auth: 'bearer',
    query: z
      .object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional().meta({ description: 'nextCursor of the previous page' }),
        documentId: z.uuid().optional().meta({ description: "Only this document's sends" }),
      })
      .strict(),
    responses: {
      200: { description: 'One page of sends', schema: z.object({ sends: z.array(sendRecordSchema), nextCursor: z.string().nullable() }) },
      ...errorResponses(400, 401, 403),
    },
    async handle({ query, principal }) {
      try {
        const page = await services.storage.mail.listSends(principal.accountId, query);
        return { body: { sends: page.records.map(sendView), nextCursor: page.nextCursor } };
      } catch (err) {
        if (err instanceof InvalidCursorError)
          throw new ApiError('VALIDATION_ERROR', { fields: [{ field: 'cursor', message: 'invalid cursor' }] });
        throw err;
      }
    },
  });
}
