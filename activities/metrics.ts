import { documentsCreated, validations } from '../src/metrics/metrics.js';
import type { Activities } from './index.js';

/**
 * The business figures the worker sees, counted when the step has succeeded: documents stored
 * by kind, validations by verdict. A step retried after it succeeded (a worker lost between
 * finishing and reporting) is counted again: the figures are rates to watch, not the ledger,
 * which is the database.
 */
export function withBusinessMetrics(activities: Activities): Activities {
  return {
    ...activities,
    async storeDocument(input) {
      const stored = await activities.storeDocument(input);
      documentsCreated.inc({ kind: input.kind });
      return stored;
    },
    async validateInvoiceXml(input) {
      const report = await activities.validateInvoiceXml(input);
      validations.inc({ format: 'xml', verdict: report.valid ? 'valid' : 'invalid' });
      return report;
    },
    async createXmlDocument(input) {
      const created = await activities.createXmlDocument(input);
      validations.inc({ format: 'xml', verdict: created.report.valid ? 'valid' : 'invalid' });
      documentsCreated.inc({ kind: input.document.kind });
      return created;
    },
    async validateZugferdPdf(input) {
      const report = await activities.validateZugferdPdf(input);
      validations.inc({ format: 'zugferd-pdf', verdict: report.valid ? 'valid' : 'invalid' });
      return report;
    },
  };
}
