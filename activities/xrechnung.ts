import { ApplicationFailure } from '@temporalio/activity';
import { invoiceSchema } from '../src/invoice/model.js';
import type { RequestContext } from '../src/operations/context.js';
import { errorCount, validateInvoiceXml as runValidation, type ValidationReport } from '../src/validation/index.js';
import { writeInvoiceXml, type CiiProfile, type SyntaxId } from '../src/xml/index.js';
import type { ActivityDeps } from './deps.js';
import { documentActivities, type StoreDocumentInput } from './documents.js';
import { stepBlobs } from './step.js';

export interface CreateXmlDocumentInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  syntax: SyntaxId;
  /** The document to record; its blob, validity and error count come from the XML built. */
  document: Omit<StoreDocumentInput, 'ctx' | 'blobKey'>;
}

export interface CreatedXmlDocument {
  documentId: string;
  xmlBlobKey: string;
  report: ValidationReport;
}

export function xrechnungActivities(deps: ActivityDeps) {
  const steps = xmlSteps(deps);
  const { storeDocument } = documentActivities(deps);
  return {
    ...steps,

    /**
     * createXinvoiceFromJson's build → validate → store as one local step: each local step
     * costs the workflow an activation (a round trip to its sandbox thread, each call into the
     * sandbox guarded by a watchdog thread), more than building or storing itself. A retry runs
     * all three again, which writes nothing twice: the XML's key is derived from the step and
     * its content, and the document's id is the workflow's.
     */
    async createXmlDocument(input: CreateXmlDocumentInput): Promise<CreatedXmlDocument> {
      const { xmlBlobKey } = await steps.buildInvoiceXml({ ctx: input.ctx, invoiceBlobKey: input.invoiceBlobKey, syntax: input.syntax });
      const report = await steps.validateInvoiceXml({ ctx: input.ctx, xmlBlobKey });
      const meta = { ...input.document.meta, valid: report.valid, errors: errorCount(report) };
      const { documentId } = await storeDocument({ ...input.document, ctx: input.ctx, blobKey: xmlBlobKey, meta });
      return { documentId, xmlBlobKey, report };
    },
  };
}

function xmlSteps({ blobs, log }: ActivityDeps) {
  return {
    /**
     * Reads the invoice JSON from the blob store, writes its XML and stores it: XRechnung in a
     * syntax, or the CII of a ZUGFeRD profile (which holds only what the profile allows).
     */
    async buildInvoiceXml(
      input: { ctx: RequestContext; invoiceBlobKey: string } & ({ syntax: SyntaxId } | { profile: CiiProfile }),
    ): Promise<{ xmlBlobKey: string; size: number }> {
      const parsed = invoiceSchema.safeParse(JSON.parse((await blobs.get(input.invoiceBlobKey)).toString('utf8')));
      if (!parsed.success)
        throw ApplicationFailure.nonRetryable(`stored invoice does not match the model: ${parsed.error.message}`, 'VALIDATION_ERROR');
      let xml: string;
      try {
        xml = writeInvoiceXml(parsed.data, 'syntax' in input ? { syntax: input.syntax } : { profile: input.profile });
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'XML_BUILD_FAILED');
      }
      const stored = await stepBlobs(blobs).put(Buffer.from(xml, 'utf8'));
      log.debug({ requestId: input.ctx.requestId, size: stored.size }, 'XML built');
      return { xmlBlobKey: stored.key, size: stored.size };
    },

    /** The official rules (XSD, EN 16931, XRechnung) run in-process; an invalid invoice is a result, not a failure. */
    async validateInvoiceXml(input: { ctx: RequestContext; xmlBlobKey: string }): Promise<ValidationReport> {
      const xml = (await blobs.get(input.xmlBlobKey)).toString('utf8');
      const report = await runValidation(xml);
      log.debug({ requestId: input.ctx.requestId, valid: report.valid, findings: report.findings.length }, 'XML validated');
      return report;
    },
  };
}
