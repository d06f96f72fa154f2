import { ApplicationFailure, CancellationScope, uuid4 } from '@temporalio/workflow';
import { convertOperation, type ConvertToZugferdInput, type ConvertToZugferdResult } from '../src/operations/convert.js';
import { ownerLanguage, refusalSummary } from '../src/conversion/owner-texts.js';
import type { RefusalDetails } from '../src/conversion/refusal-details.js';
import { finish, recordingFailure } from './outcome.js';
import { isErrorFinding } from '../src/validation/findings.js';
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
        const rules = report.findings.filter(isErrorFinding);
        const ruleCodes = [...new Set(rules.map((f) => f.ruleId))];
        const findings = ruleCodes.map((code) => rules.find((f) => f.ruleId === code)!);
        throw ApplicationFailure.create({
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
              extractionConfidence: analysis.extractionConfidence,
            } satisfies RefusalDetails,
          ],
        });
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
      finish('valid', `ZUGFeRD ${profile} from ${analysis.pageCount} page(s) (${analysis.source}), document ${documentId}`);
      return {
        documentId,
        pdfBlobKey: built.pdfBlobKey,
        profile,
        pageCount: analysis.pageCount,
        filled,
        attachments: built.attachments,
        substitutedFonts: built.substitutedFonts,
      };
    });
  } finally {
    await CancellationScope.nonCancellable(() => discardBlobs({ ctx, keys: [...new Set(temporary)] }));
  }
}
