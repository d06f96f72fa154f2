import type { MailOutcome, MailRequest } from '../mail/types.js';
import type { ValidationReport } from '../validation/index.js';
import type { SyntaxId } from '../xml/index.js';
import type { RequestContext } from './context.js';
import { defineOperation } from './operation.js';
import { QUICK, XML_RULES } from './steps.js';

/** XRechnung: invoice JSON → XML of either syntax, validated and stored; and the validation of such XML. */

export interface CreateXInvoiceInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  syntax: SyntaxId;
  fileName: string;
  /** Set when the job asked for the XML to be sent by e-mail. */
  mail?: MailRequest;
  /**
   * Build, validation and storing run as one local step (activities/xrechnung.ts,
   * createXmlDocument). Set by the API since that step exists; a run without it (a connector's
   * child run, a start by an older API, a history recorded before) takes three steps, as such
   * histories hold them. The input is in the history, so a replay takes the path the run took; a
   * patch marker would tell too, but costs every run an event and a search attribute update.
   */
  singleStep?: boolean;
}

export interface CreateXInvoiceResult {
  documentId: string;
  xmlBlobKey: string;
  report: ValidationReport;
  mail?: MailOutcome;
}

export interface ValidateXInvoiceInput {
  ctx: RequestContext;
  xmlBlobKey: string;
}

/**
 * Building and storing are quick and local; validation runs the official schematron and may be
 * slow on a cold worker, so the one step that does all three has validation's timeouts. Invalid
 * input fails for good (non-retryable ApplicationFailure thrown by the activity), I/O hiccups retry.
 */
export const createXInvoiceOperation = defineOperation<CreateXInvoiceInput, CreateXInvoiceResult>()({
  name: 'createXinvoiceFromJson',
  workflowType: 'createXInvoice',
  steps: { createXmlDocument: XML_RULES, buildInvoiceXml: QUICK, validateInvoiceXml: XML_RULES, storeDocument: QUICK },
});

/** One validation step, recorded like every other operation. */
export const validateXInvoiceOperation = defineOperation<ValidateXInvoiceInput, ValidationReport>()({
  name: 'validateXinvoiceXml',
  workflowType: 'validateXInvoice',
  steps: { validateInvoiceXml: XML_RULES },
});
