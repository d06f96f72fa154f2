import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { BuildZugferdInput, BuildZugferdResult } from '../../activities/zugferd.js';
import type { ZugferdReport } from '../../src/pdf/validate.js';
import { createZugferdFromXml } from '../../workflows/zugferd.js';
import { workflowTestEnvironment } from './environment.js';

/**
 * The build → validate → retry order of workflows/zugferd-build.ts, as a workflow with stubbed
 * activities: which conversion each failure leads to, and that a result failing anything but the
 * font rules is refused, not retried.
 */

const workflows = workflowTestEnvironment();

type Finding = ZugferdReport['findings'][number];
const fontRule: Finding = { ruleId: 'PDFA-6.2.11.5-1', severity: 'error', message: 'glyph width', source: 'pdf' };
const colourRule: Finding = { ruleId: 'PDFA-6.2.4.3-2', severity: 'error', message: 'colour space', source: 'pdf' };

/** Which findings the validation reports for the PDF each conversion mode builds; the modes asked for, in order. */
function stubs(findingsOf: Record<BuildZugferdInput['convert'], Finding[]>) {
  const asked: Array<BuildZugferdInput['convert']> = [];
  return {
    asked,
    activities: {
      async buildZugferdPdf(input: BuildZugferdInput): Promise<BuildZugferdResult> {
        asked.push(input.convert);
        // 'auto' keeps an input that declares PDF/A; the retries convert.
        return {
          pdfBlobKey: input.convert,
          profile: 'EN16931',
          converted: input.convert !== 'auto',
          substitutedFonts: input.convert === 'substitute-fonts' ? 2 : 0,
          attachments: [],
        };
      },
      async validateZugferdPdf(input: { pdfBlobKey: string }): Promise<ZugferdReport> {
        const findings = findingsOf[input.pdfBlobKey as BuildZugferdInput['convert']];
        return { valid: findings.length === 0, pdfValid: findings.length === 0, findings } as unknown as ZugferdReport;
      },
      async storeDocument() {
        return { documentId: randomUUID() };
      },
    },
  };
}

async function run(findingsOf: Record<BuildZugferdInput['convert'], Finding[]>) {
  const { asked, activities } = stubs(findingsOf);
  const input = { ctx: { requestId: randomUUID(), accountId: 'test' }, xmlBlobKey: 'xml', pdfBlobKey: 'pdf', fileName: 'invoice.pdf' };
  const outcome = await workflows.withWorker(activities, (taskQueue) =>
    workflows
      .env()
      .client.workflow.execute(createZugferdFromXml, { taskQueue, workflowId: `zugferd-build-${randomUUID()}`, args: [input] })
      .then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      ),
  );
  return { asked, ...outcome };
}

describe('building a ZUGFeRD PDF until it passes PDF/A (workflow, stubbed activities)', () => {
  it('keeps a PDF/A input that passes as it is', async () => {
    const r = await run({ auto: [], always: [], 'substitute-fonts': [] });
    expect(r.asked).toEqual(['auto']);
    expect(r.result).toMatchObject({ converted: false, substitutedFonts: 0 });
  });

  it("converts again with Ghostscript's typefaces when only the font rules fail, and says how many fonts it replaced", async () => {
    const r = await run({ auto: [fontRule], always: [fontRule], 'substitute-fonts': [] });
    expect(r.asked).toEqual(['auto', 'always', 'substitute-fonts']);
    expect(r.result).toMatchObject({ converted: true, substitutedFonts: 2 });
  });

  it('refuses without replacing fonts when another PDF/A rule fails too', async () => {
    const r = await run({ auto: [colourRule], always: [fontRule, colourRule], 'substitute-fonts': [] });
    expect(r.asked).toEqual(['auto', 'always']);
    expect(r.error).toBeInstanceOf(WorkflowFailedError);
    expect(((r.error as WorkflowFailedError).cause as { type?: string }).type).toBe('PDF_NOT_CONVERTIBLE');
  });

  it('refuses when the fonts still fail after the replacement', async () => {
    const r = await run({ auto: [fontRule], always: [fontRule], 'substitute-fonts': [fontRule] });
    expect(r.asked).toEqual(['auto', 'always', 'substitute-fonts']);
    expect((r.error as WorkflowFailedError).cause).toMatchObject({
      type: 'PDF_NOT_CONVERTIBLE',
      details: [{ ruleCodes: ['PDFA-6.2.11.5-1'] }],
    });
  });
});
