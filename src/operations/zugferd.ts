import type { MailOutcome, MailRequest } from '../mail/types.js';
import type { AttachmentNote } from '../pdf/attachments.js';
import type { DetectedProfile, ZugferdProfile } from '../pdf/profiles.js';
import type { ZugferdReport } from '../pdf/validate.js';
import type { SyntaxId } from '../xml/index.js';
import type { RequestContext } from './context.js';
import { defineOperation } from './operation.js';
import { PDF, QUICK } from './steps.js';

/** ZUGFeRD / Factur-X: the invoice's XML embedded in the caller's PDF; the validation of such a PDF and the extraction of its XML. */

export interface CreateZugferdFromJsonInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  pdfBlobKey: string;
  profile: ZugferdProfile;
  fileName: string;
  mail?: MailRequest;
}

export interface CreateZugferdFromXmlInput {
  ctx: RequestContext;
  xmlBlobKey: string;
  pdfBlobKey: string;
  fileName: string;
  mail?: MailRequest;
}

export interface CreateZugferdResult {
  documentId: string;
  pdfBlobKey: string;
  xmlBlobKey: string;
  profile: ZugferdProfile;
  converted: boolean;
  /** How many of the input's fonts are drawn in Ghostscript's own typefaces (their programs broke PDF/A). */
  substitutedFonts: number;
  /** What became of the files the input PDF already carried. */
  attachments: AttachmentNote[];
  report: ZugferdReport;
  mail?: MailOutcome;
}

export interface ValidateZugferdInput {
  ctx: RequestContext;
  pdfBlobKey: string;
  compareText: boolean;
}

export interface ExtractZugferdInput {
  ctx: RequestContext;
  pdfBlobKey: string;
}

export interface ExtractZugferdResult {
  xmlBlobKey: string;
  fileName: string;
  detected: DetectedProfile;
  syntax?: SyntaxId;
  /** The invoice as JSON, stored (it may carry attachments of many MB); absent when the XML does not map. */
  invoiceBlobKey?: string;
  /** Why there is no invoice JSON. */
  problem?: string;
}

/**
 * Building a ZUGFeRD PDF and validating it (workflows/zugferd-build.ts), which every operation
 * that makes one shares. Building may run Ghostscript (up to a minute on a large input) and
 * validation runs veraPDF in a JVM. Bad input fails for good (non-retryable ApplicationFailure
 * from the activity); I/O hiccups and a crashed worker retry.
 */
export const ZUGFERD_BUILD_STEPS = { buildZugferdPdf: PDF, validateZugferdPdf: PDF };

/** Writing XML and storing are quick. */
const CREATE_STEPS = { ...ZUGFERD_BUILD_STEPS, buildInvoiceXml: QUICK, storeDocument: QUICK };

/** Invoice JSON → CII of the profile → embedded in the PDF, validated and stored. */
export const createZugferdFromJsonOperation = defineOperation<CreateZugferdFromJsonInput, CreateZugferdResult>()({
  name: 'createZugferdFromJson',
  workflowType: 'createZugferdFromJson',
  steps: CREATE_STEPS,
});

/** The caller's CII, unchanged, embedded in the PDF. */
export const createZugferdFromXmlOperation = defineOperation<CreateZugferdFromXmlInput, CreateZugferdResult>()({
  name: 'createZugferdPdfFromXinvoice',
  workflowType: 'createZugferdFromXml',
  steps: CREATE_STEPS,
});

/** PDF/A-3, the hybrid structure and XMP, the XML's own rules, optionally the visible text against the XML. */
export const validateZugferdOperation = defineOperation<ValidateZugferdInput, ZugferdReport>()({
  name: 'validateZugferdPdf',
  workflowType: 'validateZugferd',
  steps: { validateZugferdPdf: PDF },
});

/** The invoice XML a PDF carries, and the invoice it holds; read in an isolated worker. */
export const extractZugferdOperation = defineOperation<ExtractZugferdInput, ExtractZugferdResult>()({
  name: 'extractXinvoiceFromZugferdToJson',
  workflowType: 'extractZugferd',
  steps: { extractZugferdInvoice: PDF },
});
