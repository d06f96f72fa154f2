import { ApplicationFailure, CancellationScope, uuid4 } from '@temporalio/workflow';
import { convertOperation, type ConvertToZugferdInput, type ConvertToZugferdResult } from '../src/operations/convert.js';
import { ownerLanguage, refusalSummary, type OwnerLanguage } from '../src/conversion/owner-texts.js';
import type { RefusalDetails } from '../src/conversion/refusal-details.js';
import type { DocumentAnalysis } from '../src/operations/analysis.js';
import { finish, recordingFailure } from './outcome.js';
import { isErrorFinding } from '../src/validation/findings.js';
import type { ValidationReport } from '../src/validation/index.js';
import { stepsOf } from './steps.js';
import { buildValidated } from './zugferd-build.js';

const { analyseDocument, prepareZugferdInvoice, buildInvoiceXml, storeDocument, discardBlobs, imagesToPdfDocument } = stepsOf(
  convertOperation.steps,
);

/**
 * createZugferdFromPdf: analyse (lines included) → complete and check (mandatory
 * fields, totals against the lines) → the original pages as PDF → CII of the
 * profile → build and validate → store. Anything short of a document that passes
 * every check is refused, with the reason as a non-retryable failure; usage is
 * recorded with the stored document, so only a delivered document costs.
 */
export async function convertToZugferd(input: ConvertToZugferdInput): Promise<ConvertToZugferdResult> {
  const { ctx } = input;
  const temporary = [input.fileBlobKey];
  try {
    return await recordingFailure(async () => {
      const analysis = await analyseDocument({ ctx, fileBlobKey: input.fileBlobKey, fileType: input.fileType, withLineItems: true });
      const result = await createFromReading(input, analysis, temporary);
      finish('valid', `ZUGFeRD ${result.profile} from ${analysis.pageCount} page(s) (${analysis.source}), document ${result.documentId}`);
      return result;
    });
  } finally {
    await CancellationScope.nonCancellable(() => discardBlobs({ ctx, keys: [...new Set(temporary)] }));
  }
}

/** What the build takes of a reading: the analysis' answer, or a person's correction of it. */
export type Reading = Pick<
  DocumentAnalysis,
  'invoice' | 'fields' | 'candidates' | 'unread' | 'language' | 'source' | 'extractionConfidence' | 'pageCount'
>;

/**
 * From a reading to the stored ZUGFeRD PDF: complete and check it, the original pages as PDF,
 * CII of the profile, build and validate, store. Refuses (non-retryable failure) short of a
 * document that passes every check; the blobs it makes on the way are added to `temporary`.
 */
export async function createFromReading(
  input: ConvertToZugferdInput,
  analysis: Reading,
  temporary: string[],
): Promise<ConvertToZugferdResult> {
  const { ctx } = input;
  const language = ownerLanguage(analysis.language);
  const { invoiceBlobKey, profile, filled } = await prepareZugferdInvoice({
    ctx,
    invoice: analysis.invoice,
    language,
    ...(analysis.fields ? { fields: analysis.fields } : {}),
    ...(analysis.candidates ? { candidates: analysis.candidates } : {}),
    ...(analysis.unread ? { unread: analysis.unread } : {}),
    source: analysis.source,
    extractionConfidence: analysis.extractionConfidence,
  });
  temporary.push(invoiceBlobKey);
  const pdfBlobKey =
    input.fileType === 'pdf'
      ? input.fileBlobKey
      : (await imagesToPdfDocument({ ctx, fileBlobKey: input.fileBlobKey, fileType: input.fileType })).pdfBlobKey;
  temporary.push(pdfBlobKey);
  const { xmlBlobKey } = await buildInvoiceXml({ ctx, invoiceBlobKey, profile });
  temporary.push(xmlBlobKey);

  const { built, report } = await buildValidated({ ctx, pdfBlobKey, xmlBlobKey });
  if (!report.valid) {
    temporary.push(built.pdfBlobKey);
    throw invalidRefusal(report, language, analysis.extractionConfidence);
  }

  // One usage record per page for the analysis and one per page for the build.
  const perPage = (step: string) =>
    Array.from({ length: analysis.pageCount }, () => ({ operation: `${convertOperation.name}.${step}`, units: 1 }));
  const { documentId } = await storeDocument({
    ctx,
    documentId: uuid4(),
    blobKey: built.pdfBlobKey,
    kind: 'zugferd-pdf',
    fileName: input.fileName,
    contentType: 'application/pdf',
    meta: {
      profile,
      source: analysis.source,
      pages: analysis.pageCount,
      extractionConfidence: analysis.extractionConfidence,
      converted: built.converted,
    },
    usage: [...perPage('analysis'), ...perPage('build')],
  });
  return {
    documentId,
    pdfBlobKey: built.pdfBlobKey,
    profile,
    pageCount: analysis.pageCount,
    filled,
    attachments: built.attachments,
    substitutedFonts: built.substitutedFonts,
  };
}

/** The refusal of a built document that fails validation: one finding per rule it breaks. */
function invalidRefusal(report: ValidationReport, language: OwnerLanguage, extractionConfidence: number): ApplicationFailure {
  const rules = report.findings.filter(isErrorFinding);
  const ruleCodes = [...new Set(rules.map((f) => f.ruleId))];
  const findings = ruleCodes.map((code) => rules.find((f) => f.ruleId === code)!);
  return ApplicationFailure.create({
    nonRetryable: true,
    type: 'ZUGFERD_INVALID',
    message: `The built document fails validation: ${rules
      .slice(0, 5)
      .map((f) => `${f.ruleId}: ${f.message}`)
      .join('; ')}`,
    details: [
      {
        ruleCodes,
        findings,
        artefacts: report.artefacts,
        stage: 'validateZugferdPdf' satisfies keyof typeof convertOperation.steps,
        language,
        userMessage: refusalSummary('ZUGFERD_INVALID', ruleCodes, language),
        extractionConfidence,
      } satisfies RefusalDetails,
    ],
  });
}
