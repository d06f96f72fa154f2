import { ApplicationFailure } from '@temporalio/workflow';
import type { BuildZugferdResult } from '../activities/zugferd.js';
import type { RefusalDetails } from '../src/conversion/refusal-details.js';
import type { RequestContext } from '../src/operations/context.js';
import { ZUGFERD_BUILD_STEPS } from '../src/operations/zugferd.js';
import type { ZugferdReport } from '../src/pdf/validate.js';
import { isErrorFinding } from '../src/validation/findings.js';
import { stepsOf } from './steps.js';

// Helpers, not workflow types: index.ts does not re-export this module.
const { buildZugferdPdf, validateZugferdPdf } = stepsOf(ZUGFERD_BUILD_STEPS);

/** The step whose verdict refuses: an activity's name, as a refusal of an activity names it. */
const STAGE = 'validateZugferdPdf' satisfies keyof typeof ZUGFERD_BUILD_STEPS;

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
      details: [{ ruleCodes: problems.map((f) => f.ruleId), stage: STAGE } satisfies RefusalDetails],
    });
  }
  return { built, report };
}

const pdfProblems = (report: ZugferdReport) => report.findings.filter(isErrorFinding).filter((f) => f.source === 'pdf');
