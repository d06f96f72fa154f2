import type { MailResult, TransportOrder } from '../../mail/schema.js';
import { loadTemplate, TemplateInvalidError, TemplateNotFoundError, type LoadedTemplate, type templateRoots } from '../../render/index.js';
import { createInvoicePdfOperation, type CreateInvoicePdfResult } from '../../operations/render.js';
import { checkInvoice } from '../intake/invoice-input.js';
import { afterAnswer, type Job } from '../intake/job.js';
import { safeFileStem } from '../../files/names.js';
import { JobRefusal } from '../intake/refusal.js';
import { runWorkflow, type JobDeps } from './run-workflow.js';

/** The template of that id, or the refusal that says why there is none to use. */
export async function resolveTemplate(roots: ReturnType<typeof templateRoots>, id: string): Promise<LoadedTemplate> {
  try {
    return await loadTemplate(roots, id);
  } catch (err) {
    if (err instanceof TemplateNotFoundError) {
      throw new JobRefusal('TEMPLATE_NOT_FOUND', {
        detail: `No template "${id}". Available: ${err.available.join(', ') || 'none'}.`,
        fields: [{ field: 'templateId', message: 'unknown template' }],
      });
    }
    if (err instanceof TemplateInvalidError) throw new JobRefusal('TEMPLATE_INVALID', { detail: err.message });
    throw err;
  }
}

export interface RenderOrder {
  template: LoadedTemplate;
  /** Checked against the invoice model; what does not fit is refused with field problems. */
  invoice: unknown;
  /** Default `<invoiceNumber>.pdf`. */
  fileName?: string;
  /** SPEC's invoicePassthrough: true creates the PDF without adding the invoice to the account's invoice list. */
  passthrough: boolean;
  transport?: TransportOrder;
}

export interface RenderedInvoicePdf extends Omit<CreateInvoicePdfResult, 'pdfBlobKey' | 'mail'> {
  pdf: Buffer;
  fileName: string;
  mail: MailResult | undefined;
}

/** createInvoicePdfFromJson: the invoice rendered through the template as a ZUGFeRD PDF/A-3, validated and stored, optionally e-mailed. */
export async function renderInvoicePdf(deps: JobDeps, job: Job, order: RenderOrder): Promise<RenderedInvoicePdf> {
  const { invoice, mail, stage } = await checkInvoice(deps, job.account, order.invoice, order.transport);
  const fileName = order.fileName ?? `${safeFileStem(invoice.invoiceNumber) ?? 'invoice'}.pdf`;
  const { template } = order;
  const {
    pdfBlobKey,
    mail: outcome,
    ...result
  } = await runWorkflow(deps, job, createInvoicePdfOperation, {
    input: async () => {
      const { invoiceBlobKey, mail: request } = await stage();
      return {
        invoiceBlobKey,
        templateId: template.template.id,
        templateDir: template.dir,
        templateSource: template.source,
        fileName,
        passthrough: order.passthrough,
        ...(request ? { mail: request } : {}),
      };
    },
    summary: `Invoice PDF from JSON, template ${template.template.id}`,
  });
  const pdf = await deps.blobs.get(pdfBlobKey);
  // Nothing kept (passthrough): the PDF lived only to be answered (and, with a key, until the answer is kept).
  if (result.documentId === null) await afterAnswer(job, async () => void (await deps.blobs.delete(pdfBlobKey)));
  return { ...result, pdf, fileName, mail: await mail.result(outcome) };
}
