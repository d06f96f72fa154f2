import type { RefusalDetails } from '../src/conversion/refusal-details.js';
import type { FilledField } from '../src/conversion/convertible.js';
import type { FileType } from '../src/files/file-type.js';
import type { MailOutcome, MailRequest } from '../src/mail/types.js';
import type { DocumentAnalysis } from '../src/operations/analysis.js';
import type { RequestContext } from '../src/operations/context.js';
import { defineOperation } from '../src/operations/operation.js';
import { ON_SOURCE } from '../src/operations/steps.js';
import type { ValidationReport } from '../src/validation/index.js';
import type { ConnectorOperation, ConnectorOptions } from './operations.js';

/**
 * One file a route claimed, from its processing folder to its result (workflows/connector-file.ts):
 * staged, run through the route's operation, filed with its reports.
 */

/** A claimed file: in the route's processing folder, named by its content. */
export interface ConnectorFileRef {
  /** The name it was dropped under. */
  name: string;
  /** Its path in processing/ on the route's source. */
  path: string;
  hash: string;
}

export interface ConnectorFileInput {
  ctx: RequestContext;
  route: string;
  operation: ConnectorOperation;
  options: ConnectorOptions;
  file: ConnectorFileRef;
  /** A refused conversion waits this many days for a person in the review queue; none when unset. */
  reviewDays?: number;
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
  /** The code the file was refused with before a person corrected it (workflows/review.ts): it lies in error/ with that refusal's reports. */
  reviewedAfter?: string;
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

/**
 * Its name also begins the workflow's id (`connectorFile-<route>-<hash>`). The source's steps
 * run where its folders and credentials are; a source that is down is waited for, a refusal of
 * the file is final.
 */
export const connectorFileOperation = defineOperation<ConnectorFileInput & { activityQueue: string }, ConnectorFileResult>()({
  name: 'connectorFile',
  workflowType: 'processConnectorFile',
  steps: { stageConnectorFile: ON_SOURCE, fileConnectorResult: ON_SOURCE },
});
