import { randomBytes } from 'node:crypto';
import type { Invoice } from '../../invoice/model.js';
import { renderInvoicePdf as renderPdf, templateRoots } from '../../render/index.js';
import type { Language } from '../../report/language.js';
import { parseInvoiceXml, XmlSyntaxError } from '../../xml/index.js';
import type { JobDeps } from './run-workflow.js';
import type { Job } from '../intake/job.js';
import { resolveTemplate } from './render.js';
import { JobRefusal } from '../intake/refusal.js';
import { extractZugferdInvoice } from './zugferd.js';

/** The invoice an e-invoice carries, for showing it to people: XML read here, a PDF's XML through the extraction workflow. */
export async function readEInvoice(deps: JobDeps, job: Job, order: { xml: string } | { pdf: Buffer }): Promise<Invoice> {
  if ('pdf' in order) {
    const extracted = await extractZugferdInvoice(deps, job, order.pdf);
    if (!extracted.invoice)
      throw new JobRefusal('XML_UNREADABLE', { detail: extracted.problem ?? `${extracted.fileName} does not map onto the invoice model.` });
    return extracted.invoice;
  }
  try {
    return parseInvoiceXml(order.xml).invoice;
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw new JobRefusal('XML_UNREADABLE', { detail: err.message, cause: err });
    throw err;
  }
}

/**
 * The invoice printed through the built-in template of the reader's language. The template's
 * sample logo is left out: the view shows someone else's invoice, not the operator's letterhead.
 */
export async function invoiceViewPdf(dataDir: string, invoice: Invoice, lang: Language): Promise<Uint8Array> {
  const { logo: _sample, ...template } = await resolveTemplate(templateRoots(dataDir), lang === 'de' ? 'de-standard' : 'en-standard');
  const rendered = await renderPdf(invoice, template, { created: new Date(), fileId: randomBytes(16).toString('hex') });
  return rendered.pdf;
}
