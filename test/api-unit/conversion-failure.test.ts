import { describe, expect, it } from 'vitest';
import { CONVERSION_CODES, conversionFailure } from '../../src/api/conversion-failure.js';
import { ERROR_CODES, fromRefusal, ApiError } from '../../src/api/errors.js';
import { JobRefusal, REFUSAL_CODES } from '../../src/jobs/intake/refusal.js';

/** createZugferdFromPdf's failure answer for the refusals a running service cannot be made to produce on demand. */

const answer = (err: ApiError) => conversionFailure(err, 'ref-1', 'Rechnung.pdf').body as { error: Record<string, unknown> };

describe('createZugferdFromPdf failures in the client catalogue', () => {
  it('maps every refusal a job can end with to one of the client codes', () => {
    const mapped = new Set(Object.values(CONVERSION_CODES).flatMap((c) => [...c.reasons]));
    const unmapped = REFUSAL_CODES.filter(
      (code) => !mapped.has(code) && answer(fromRefusal(new JobRefusal(code))).error.code === 'UNKNOWN_ERROR' && code !== 'INTERNAL_ERROR',
    );
    // Refusals of other operations (templates, e-mail, extraction, the readable view, the review queue) never end a conversion; they would be unknown.
    expect(unmapped.sort()).toEqual([
      'ATTACHMENT_TOO_LARGE',
      'INVOICE_INCOMPLETE',
      'INVOICE_XML_MISSING',
      'NOTHING_TO_RESEND',
      'NOT_FOUND',
      'REVIEW_CLOSED',
      'SENDER_NOT_ALLOWED',
      'TEMPLATE_INVALID',
      'TEMPLATE_NOT_FOUND',
      'XML_NOT_ZUGFERD',
      'XML_UNREADABLE',
    ]);
  });

  it('answers a rule failure as ZUGFERD_REJECTED with an explanation per rule code and the confidence', () => {
    const refusal = new JobRefusal('ZUGFERD_INVALID', {
      detail: 'The built document fails validation: BR-CO-10: …',
      details: {
        ruleCodes: ['BR-CO-10', 'PDFA-6.2.11.4.1-1'],
        findings: [
          {
            ruleId: 'BR-CO-10',
            severity: 'error',
            message: '[BR-CO-10]-Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131).',
            source: 'en16931',
          },
        ],
        artefacts: [{ name: 'CEN EN 16931 schematron (CII)', version: '1.3.16' }],
        stage: 'validateZugferdPdf',
        extractionConfidence: 0.93,
      },
    });
    const { error } = answer(fromRefusal(refusal));
    expect(error).toMatchObject({
      code: 'ZUGFERD_REJECTED',
      reason: 'ZUGFERD_INVALID',
      stage: 'zugferd',
      step: 'validateZugferdPdf',
      httpStatus: 422,
      retryable: false,
      extractionConfidence: 0.93,
    });
    expect(error.explanations).toEqual([
      {
        code: 'BR-CO-10',
        found: true,
        title: 'BR-CO-10 (en16931)',
        description: expect.stringContaining('Sum of Invoice line net amount'),
        source: 'en16931',
        file: 'CEN EN 16931 schematron (CII) 1.3.16',
      },
      { code: 'PDFA-6.2.11.4.1-1', found: false, title: 'PDFA-6.2.11.4.1-1', description: '' },
    ]);
  });

  it('answers low confidence, temporary and unknown errors with their codes; the stage of the latter two is the step that failed', () => {
    expect(
      answer(
        fromRefusal(
          new JobRefusal('FIELDS_UNCERTAIN', {
            details: { fields: [{ field: 'invoice.invoiceNumber', bt: 'BT-1', message: 'uncertain' }], extractionConfidence: 0.6 },
          }),
        ),
      ).error,
    ).toMatchObject({
      code: 'EXTRACTION_LOW_CONFIDENCE',
      stage: 'analyse',
      extractionConfidence: 0.6,
      fields: [{ bt: 'BT-1' }],
    });
    expect(answer(fromRefusal(new JobRefusal('UPSTREAM_TIMEOUT', { stage: 'buildZugferdPdf' }))).error).toMatchObject({
      code: 'PROCESSING_TEMPORARY_ERROR',
      stage: 'zugferd',
      httpStatus: 504,
      retryable: true,
    });
    expect(answer(fromRefusal(new JobRefusal('SERVICE_UNAVAILABLE'))).error).toMatchObject({
      code: 'PROCESSING_TEMPORARY_ERROR',
      stage: 'unknown',
      httpStatus: 503,
      retryable: true,
    });
    expect(answer(fromRefusal(new JobRefusal('INTERNAL_ERROR', { stage: 'storeDocument' }))).error).toMatchObject({
      code: 'UNKNOWN_ERROR',
      stage: 'deliver',
      httpStatus: 500,
    });
    expect(answer(new ApiError('AUTH_SCHEME_INVALID')).error).toMatchObject({ code: 'UNAUTHORIZED', stage: 'access', httpStatus: 403 });
  });

  it('never leaves detail empty', () => {
    for (const code of Object.keys(ERROR_CODES) as Array<keyof typeof ERROR_CODES>)
      expect(String(answer(new ApiError(code)).error.detail).trim()).not.toBe('');
  });
});
