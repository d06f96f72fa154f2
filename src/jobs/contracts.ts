import type { FieldSource } from '../analysis/sources.js';
import type { ConversionProfile, FilledField } from '../conversion/convertible.js';
import type { OwnerLanguage } from '../conversion/owner-texts.js';
import type { FieldProblem } from '../conversion/field-problem.js';
import type { FileType } from '../files/file-type.js';
import type { Invoice } from '../invoice/model.js';
import type { MailOutcome, MailRequest } from '../mail/types.js';
import type { AttachmentNote } from '../pdf/attachments.js';
import type { DetectedProfile, ZugferdProfile } from '../pdf/profiles.js';
import type { ZugferdReport } from '../pdf/validate.js';
import type { TemplateSource } from '../render/registry.js';
import type { RequestContext } from '../temporal/context.js';
import type { Finding, ValidationReport } from '../validation/index.js';
import type { SyntaxId } from '../xml/index.js';

/**
 * What the job layer, the workflows and the activities hand each other: workflow inputs and
 * results, and what a refusal carries. Types (and one plain list) only, so workflows can import
 * them without pulling anything into their deterministic bundle.
 */

/** What a refusal carries beyond its code and message (ApplicationFailure details). */
export interface RefusalDetails {
  fields?: FieldProblem[];
  ruleCodes?: string[];
  /** For refusals a workflow raises itself (no activity to name). */
  stage?: string;
  /** The owner's language (de or en), for the userMessage and the e-mail. */
  language?: OwnerLanguage;
  /** What the owner of the invoice reads, in that language. */
  userMessage?: string;
  /** The analysis' confidence, for refusals after the analysis. */
  extractionConfidence?: number;
  /** The findings behind `ruleCodes` (one per rule) and the rule sets that made them, for explanations. */
  findings?: Finding[];
  artefacts?: ValidationReport['artefacts'];
}

// ---------------------------------------------------------------- analysis

export interface AnalyseDocumentInput {
  ctx: RequestContext;
  fileBlobKey: string;
  fileType: FileType;
  /** Also read the line items (BG-25). */
  withLineItems: boolean;
}

/** Where the data came from; for logs and the workflow summary. */
export type AnalysisSource = 'embedded-xml' | 'text-layer' | 'ocr' | 'text-layer+ocr';

export interface DocumentAnalysis {
  /** 0..1; exactly 1 for invoice XML embedded in the PDF. */
  extractionConfidence: number;
  /** Only the fields found, in the model's form (ISO dates, decimal strings). */
  invoice: Invoice;
  pageCount: number;
  source: AnalysisSource;
  /** Per field read from the pages (path with indices): its confidence and whether it was printed, inferred or a default. Absent for embedded XML. */
  fields?: Record<string, FieldReport>;
  /** Per field a person may have to confirm, the other readings found (src/analysis/result.ts). */
  candidates?: Record<string, string[]>;
  /** Parts the pages print that were not read (src/analysis/result.ts). */
  unread?: string[];
  /** The language of the pages, when one clearly leads. */
  language?: string;
}

export interface FieldReport {
  confidence: number;
  source: FieldSource;
}

// ---------------------------------------------------------------- createZugferdFromPdf

export interface ConvertToZugferdInput extends Omit<AnalyseDocumentInput, 'withLineItems'> {
  /** Name of the stored result, `<name>-zugferd.pdf`. */
  fileName: string;
}

export interface ConvertToZugferdResult {
  documentId: string;
  pdfBlobKey: string;
  profile: ConversionProfile;
  pageCount: number;
  /** Values the page did not print: inferred from it, or defaults. */
  filled: FilledField[];
  /** What became of files the input PDF carried (kept as associated files, replaced, dropped). */
  attachments: AttachmentNote[];
  /** How many of the input's fonts are drawn in Ghostscript's own typefaces (their programs broke PDF/A). */
  substitutedFonts: number;
}

// ---------------------------------------------------------------- XRechnung

export interface CreateXInvoiceInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  syntax: SyntaxId;
  fileName: string;
  /** Set when the job asked for the XML to be sent by e-mail. */
  mail?: MailRequest;
  /**
   * Build, validation and storing run as one local step (activities/xinvoice.ts,
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

// ---------------------------------------------------------------- ZUGFeRD

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

// ---------------------------------------------------------------- template invoices

export interface CreateInvoicePdfInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  templateId: string;
  templateDir: string;
  templateSource: TemplateSource;
  fileName: string;
  /** SPEC's invoicePassthrough: true returns the PDF without adding the invoice to the account's invoice list. */
  passthrough: boolean;
  /** Set when the job asked for the PDF to be sent by e-mail. */
  mail?: MailRequest;
}

export interface CreateInvoicePdfResult {
  /** The stored ZUGFeRD PDF (downloadURL, resendToken); null when nothing was kept (passthrough without e-mail). */
  documentId: string | null;
  /** The stored invoice record; null for passthrough. */
  invoiceId: string | null;
  /** Passthrough: the numbers reserved for what was not kept, the PDF's when it was not stored and the invoice's. */
  reserved?: { document?: number; invoice: number };
  pdfBlobKey: string;
  pages: number;
  report: ZugferdReport;
  mail?: MailOutcome;
}

// ---------------------------------------------------------------- e-mail

export interface SendMessageInput {
  ctx: RequestContext;
  mail: MailRequest;
  documentId?: string;
}

// ---------------------------------------------------------------- folder connectors

/** What a connector route can do with a file: the REST operations of the same names. A value, but a plain list, so workflows may import it. */
export const CONNECTOR_OPERATIONS = [
  'createZugferdFromPdf',
  'createJSONFromAnalysedPdf',
  'validate',
  'createXinvoiceFromJson',
  'extractJSONFromZugferd',
] as const;
export type ConnectorOperation = (typeof CONNECTOR_OPERATIONS)[number];

export interface ConnectorOptions {
  syntax?: SyntaxId;
  withLineItems?: boolean;
}

/** A claimed file: in the route's processing folder, named by its content. */
export interface ConnectorFileRef {
  /** The name it was dropped under. */
  name: string;
  /** Its path in processing/ on the route's source. */
  path: string;
  hash: string;
}

/** The workflow of one claimed file: its operation name, which also begins its id (`connectorFile-<route>-<hash>`). */
export const CONNECTOR_FILE_OPERATION = 'connectorFile';

export interface ConnectorFileInput {
  ctx: RequestContext;
  route: string;
  operation: ConnectorOperation;
  options: ConnectorOptions;
  file: ConnectorFileRef;
}

/** What the stage activity made of the file, for the operation's workflow. */
export interface StagedConnectorFile {
  blobKey: string;
  kind: FileType | 'xml' | 'json';
}

/** How the operation ended, as the file-away activity needs it; plain JSON (it travels in the workflow history). */
export type ConnectorOutcome =
  | {
      kind: 'done';
      /** The result's bytes: a ZUGFeRD PDF, XML or invoice JSON. */
      resultBlobKey?: string;
      /** An analysis' answer, written as the route's JSON result. */
      analysis?: DocumentAnalysis;
      valid?: boolean;
      findings?: ValidationReport['findings'];
      artefacts?: ValidationReport['artefacts'];
      /** Values the result carries that the page did not print. */
      filled?: FilledField[];
    }
  | { kind: 'refused'; code: string; message: string; details?: RefusalDetails };

export interface FileConnectorResultInput {
  ctx: RequestContext;
  route: string;
  operation: ConnectorOperation;
  file: ConnectorFileRef;
  outcome: ConnectorOutcome;
  /** The workflow's time of finishing, so a retried activity writes the same report. */
  finishedAt: string;
}

export interface ConnectorFileResult {
  status: 'done' | 'refused';
  /** Where the input went: done/<day>/ or error/. */
  inputPath: string;
  resultPath?: string;
  reportPath: string;
  /** What became of the route's e-mail about the file, where it asks for one. */
  mail?: MailOutcome['status'] | 'not-allowed';
}

/** The file-away step's answer: the route's e-mail, when it asks for one, stored for the workflow to send. */
export interface FiledConnectorFile extends Omit<ConnectorFileResult, 'mail'> {
  mail?: MailRequest | 'not-allowed';
}

/** A file as a folder source lists it. */
export interface FolderEntry {
  /** Path relative to the source root. */
  path: string;
  name: string;
  size: number;
  modifiedMs: number;
  /** The backend's own version tag where it has one (S3 ETag, Drive version), so a rewrite with equal size and mtime still shows. */
  version?: string;
}

/** What a look leaves for the next one; a route's watcher carries it, across continue-as-new too. */
export interface LookState {
  /** What the look saw; files unchanged since are complete. */
  look: FolderEntry[];
  /** Files were arriving or waiting for an earlier copy: the next look must list the folder whatever changed. */
  pending: boolean;
  /** For a source with a change log (Google Drive): the token the next look asks what changed since. */
  changes?: string;
  /** Files in processing/ (path and size) whose workflow a look has started: not read again by the next. */
  inHand?: string[];
  /** Files of the route's kind in its folder that the look did not take (not complete yet). */
  waiting?: number;
}

export interface LookAtRouteInput {
  route: string;
  previous: LookState;
}

export interface RouteLook extends LookState {
  /** The files the look found without a workflow: the watcher starts one for each. */
  toStart: FileToStart[];
  /** When to look again: soon while files are pending (still being written, or waiting for an earlier copy), else the source's poll interval. */
  nextLookMs: { pending: number; idle: number };
}

/** A claimed file the ledger let through: new content, or content whose workflow may be under way already. */
export interface FileToStart {
  input: ConnectorFileInput;
  /** The ledger's name for the content's workflow: one workflow per route and content, however often the file is seen. */
  workflowId: string;
  /** The file in LookState.inHand once its workflow runs. */
  handKey: string;
  /** The ledger has this very file as the content's first copy; another copy waits for the first one's workflow to end. */
  firstCopy: boolean;
}

/** A connector route at a glance: for `connectors status` and /health. */
export interface RouteStatus {
  route: string;
  operation?: ConnectorOperation;
  /** Files in the watched folder not yet taken; -1 while the source cannot be reached. */
  waiting: number;
  /** Taken and not finished. */
  processing: number;
  processed: number;
  refused: number;
  /** When the route's watcher last looked (/health). */
  lastLookAt?: string;
  /** Why its source cannot be reached, as the failing look says (/health). */
  problem?: string;
}

/** What a route's watcher tells of itself (its `routeState` query). */
export interface WatcherState {
  route: string;
  operation?: ConnectorOperation;
  lastLookAt?: string;
  waiting: number;
}
