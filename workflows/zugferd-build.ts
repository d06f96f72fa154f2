import { ApplicationFailure } from '@temporalio/workflow';
import type { BuildZugferdResult } from '../activities/zugferd.js';
import type { Activities } from '../activities/index.js';
import { PDF, proxySteps } from './activity-profiles.js';
import type { RefusalDetails } from '../src/jobs/contracts.js';
import type { ZugferdReport } from '../src/pdf/validate.js';
import { isErrorFinding } from '../src/validation/findings.js';
import type { RequestContext } from '../src/temporal/context.js';

// Building may run Ghostscript (up to a minute on a large input) and validation runs veraPDF in
// a JVM. Bad input fails for good (non-retryable ApplicationFailure from the activity); I/O
// hiccups and a crashed worker retry. Helpers, not workflow types: index.ts does not re-export
// this module.
const { buildZugferdPdf, validateZugferdPdf } = proxySteps<Activities>(PDF);

/** PDF/A's font rules (ISO 19005-3 6.2.11): what Ghostscript's own typefaces can mend. */
const FONT_RULE = /^PDFA-6\.2\.11\./;

/**
 * build → validate. An input that claims PDF/A but whose result fails the PDF/A check is
 * converted with Ghostscript and built again; one whose converted result fails only the font
 * rules is converted once more with Ghostscript's own typefaces in place of its fonts; a result
 * that still fails is refused, so no file ever claims a conformance it lacks. The XML's own
 * findings are left to the caller.
 */
export async function buildValidated(input: {
  ctx: RequestContext;
  pdfBlobKey: string;
  xmlBlobKey: string;
}): Promise<{ built: BuildZugferdResult; report: ZugferdReport }> {
  let built = await buildZugferdPdf({ ...input, convert: 'auto' });
  let report = await validateZugferdPdf({ ctx: input.ctx, pdfBlobKey: built.pdfBlobKey, compareText: false });
  if (!report.pdfValid && !built.converted) {
    built = await buildZugferdPdf({ ...input, convert: 'always' });
    report = await validateZugferdPdf({ ctx: input.ctx, pdfBlobKey: built.pdfBlobKey, compareText: false });
  }
  if (!report.pdfValid && pdfProblems(report).every((f) => FONT_RULE.test(f.ruleId))) {
    built = await buildZugferdPdf({ ...input, convert: 'substitute-fonts' });
    report = await validateZugferdPdf({ ctx: input.ctx, pdfBlobKey: built.pdfBlobKey, compareText: false });
  }
  if (!report.pdfValid) {
    const problems = pdfProblems(report);
    throw ApplicationFailure.create({
      nonRetryable: true,
      type: 'PDF_NOT_CONVERTIBLE',
      message: `Even after conversion the PDF is not PDF/A-3b conformant: ${problems
        .slice(0, 5)
        .map((f) => `${f.ruleId}: ${f.message}`)
        .join('; ')}`,
      details: [{ ruleCodes: problems.map((f) => f.ruleId), stage: 'validateZugferdPdf' } satisfies RefusalDetails],
    });
  }
  return { built, report };
}

const pdfProblems = (report: ZugferdReport) => report.findings.filter(isErrorFinding).filter((f) => f.source === 'pdf');
