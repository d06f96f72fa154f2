import { z } from 'zod';
import { convertOperation } from '../../operations/convert.js';
import type { FilledField } from '../../conversion/convertible.js';
import { DEFAULT_FILE_NAME, sanitiseFileName } from '../../files/names.js';
import { attachmentDisposition } from '../file-names.js';
import { convertPdfToZugferd } from '../../jobs/submit/convert.js';
import { MAX_CONVERT_FILE_BYTES } from '../../jobs/intake/file.js';
import type { AttachmentNote } from '../../pdf/attachments.js';
import { CONVERSION_CODES, conversionFailure, conversionFailureSchema, statusesOf } from '../conversion-failure.js';
import { FILE_FIELD_ALIASES, readFileField } from '../file-input.js';
import { idempotencyHeaders, oncePerKey } from '../idempotency.js';
import { defineRoute } from '../route.js';
import type { Services } from '../services.js';
import { fileFields } from './analysis.js';

export function convertRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      path: '/createZugferdFromPdf',
      operationId: convertOperation.name,
      summary: 'Turn an invoice PDF or scan into a validated ZUGFeRD PDF/A-3 in one call',
      description:
        'Analyses the file (text layer or OCR), completes what the page leaves implicit, refuses when mandatory fields are missing or the printed totals differ from the lines, ' +
        'embeds EN 16931 CII (profile EN16931; XRECHNUNG when the buyer reference is a Leitweg-ID) into the original pages as PDF/A-3 and validates the result. ' +
        'Success: the PDF itself. Failure: JSON with the reason and an e-mail for the invoice owner. Set client timeouts to 600 s. Usage: one record per page for the analysis and one per page for the build, on success only.',
      tags: ['ZUGFeRD'],
      auth: 'bearer',
      body: z
        .object({
          ...fileFields,
          fileName: z
            .string()
            .max(10_000)
            .optional()
            .meta({ description: `Original file name; names the result <name>-zugferd.pdf and the e-mail. Default ${DEFAULT_FILE_NAME}.` }),
        })
        .strict(),
      headers: idempotencyHeaders.request,
      responses: {
        200: {
          description:
            'The ZUGFeRD PDF (headers X-Zugferd-Status: success, X-Zugferd-Reference, X-Zugferd-Profile; X-Zugferd-Inferred and X-Zugferd-Defaults list the business terms, e.g. "BT-55, BT-151", ' +
            'whose values the page did not print but implied, or that took a default; empty when none. The inferred ones are also named in a note (BT-22) of the embedded XML. ' +
            'X-Zugferd-Omitted lists the optional terms the page printed but that were read too unsurely to write (an item description BT-154, a seller item number BT-155, payment terms BT-20 where the due date is printed, a seller registration number BT-30 where the VAT id names the seller, an exemption reason BT-120 of a category with a VATEX code, for which the standard reason and code are written). ' +
            'X-Zugferd-Attachments counts what became of files the input PDF carried: kept as PDF/A-3 associated files, replaced (an older invoice XML) or dropped (unreadable); ' +
            "X-Zugferd-Substituted-Fonts counts the fonts whose embedded programs contradicted their widths, which PDF/A forbids, and which are therefore drawn in a close typeface of Ghostscript's, at the same widths)",
          contentType: 'application/pdf',
          headers: idempotencyHeaders.response,
        },
        ...Object.fromEntries(
          [400, 401, 403, 409, 413, 415, 422, 500, 503, 504].map((s) => [
            s,
            { description: `Refused (${codesOf(s).join(', ')})`, schema: conversionFailureSchema },
          ]),
        ),
      },
      handle: ({ body, principal, request }) =>
        oncePerKey(services, principal, request, { operation: convertOperation.name, body }, async (services, job) => {
          const file = readFileField(body, { fields: FILE_FIELD_ALIASES, maxBytes: MAX_CONVERT_FILE_BYTES }).bytes;
          const result = await convertPdfToZugferd(services, job, { file, fileName: sanitiseFileName(body.fileName) });
          return {
            body: result.pdf,
            contentType: 'application/pdf',
            headers: {
              'Content-Disposition': attachmentDisposition(result.fileName),
              'X-Zugferd-Status': 'success',
              'X-Zugferd-Reference': request.requestId,
              'X-Zugferd-Profile': result.profile,
              'X-Zugferd-Inferred': termsOf(result.filled, 'inferred'),
              'X-Zugferd-Defaults': termsOf(result.filled, 'default'),
              'X-Zugferd-Omitted': termsOf(result.filled, 'omitted'),
              'X-Zugferd-Attachments': attachmentCounts(result.attachments),
              'X-Zugferd-Substituted-Fonts': String(result.substitutedFonts),
              'Cache-Control': 'private, no-store',
            },
          };
        }),
      failure: (err, { request, body }) =>
        conversionFailure(err, request.requestId, sanitiseFileName((body as { fileName?: unknown } | undefined)?.fileName)),
    }),
  ];
}

/** "kept=1, replaced=1, dropped=0": what became of the files the input PDF carried (names may not be ASCII, so counts only). */
function attachmentCounts(notes: AttachmentNote[]): string {
  return (['kept', 'replaced', 'dropped'] as const)
    .map((action) => `${action}=${notes.filter((n) => n.action === action).length}`)
    .join(', ');
}

/** Distinct business terms of the filled values of one source, for a response header. */
function termsOf(filled: FilledField[], source: FilledField['source']): string {
  return [
    ...new Set(
      filled
        .filter((f) => f.source === source)
        .map((f) => f.bt)
        .filter(Boolean),
    ),
  ].join(', ');
}

/** The client's codes answered with an HTTP status. */
function codesOf(status: number): string[] {
  return (Object.keys(CONVERSION_CODES) as Array<keyof typeof CONVERSION_CODES>).filter((code) => statusesOf(code).includes(status));
}
