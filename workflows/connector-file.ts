import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { ConnectorActivities } from '../activities/connectors.js';
import {
  connectorFileOperation,
  type ConnectorFileInput,
  type ConnectorFileResult,
  type ConnectorOutcome,
  type StagedConnectorFile,
} from '../connectors/file-operation.js';
import { EXTRACT_JSON, VALIDATE } from '../connectors/operations.js';
import type { RefusalDetails } from '../src/conversion/refusal-details.js';
import { analyseOperation } from '../src/operations/analysis.js';
import { convertOperation } from '../src/operations/convert.js';
import { REVIEWABLE, reviewOperation } from '../src/operations/review.js';
import { startAttributes } from '../src/temporal/search-attributes.js';
import { createXInvoiceOperation } from '../src/operations/xrechnung.js';
import { analyseInvoiceFile } from './analysis.js';
import { convertToZugferd } from './convert.js';
import { deliverIfRequested } from './mail.js';
import { finish } from './outcome.js';
import { reviewConversion } from './review.js';
import { onSource } from './steps.js';
import { createXInvoice, validateXInvoice } from './xrechnung.js';
import { extractZugferd, validateZugferd } from './zugferd.js';

/**
 * One file a connector route picked up, from its processing folder to its result: stage it
 * (read from the source, check, store), run the route's operation as the same workflow the REST
 * API runs, then write the result and the reports and file the input into done/ or error/.
 * The workflow id is the route and the content's hash (src/jobs/intake/job.ts), so a file is one job
 * however often it is seen. Whatever the operation says, the file ends filed with a report:
 * a refusal is an outcome here, not a failure.
 */
export async function processConnectorFile(input: ConnectorFileInput & { activityQueue: string }): Promise<ConnectorFileResult> {
  const { steps } = connectorFileOperation;
  const { stageConnectorFile } = proxyActivities<ConnectorActivities>(onSource(steps.stageConnectorFile, input.activityQueue));
  const { fileConnectorResult } = proxyActivities<ConnectorActivities>(onSource(steps.fileConnectorResult, input.activityQueue));
  let outcome: ConnectorOutcome;
  try {
    const staged = await stageConnectorFile({ ctx: input.ctx, route: input.route, operation: input.operation, file: input.file });
    outcome = await runOperation(input, staged);
  } catch (err) {
    outcome = refusalOf(err);
  }
  const { mail: request, ...filed } = await fileConnectorResult({
    ctx: input.ctx,
    route: input.route,
    operation: input.operation,
    file: input.file,
    outcome,
    finishedAt: new Date().toISOString(),
  });
  const mail = request === 'not-allowed' ? request : (await deliverIfRequested(input.ctx, request))?.status;
  const review = outcome.kind === 'refused' && (await startReview(input, outcome, filed.inputPath));
  if (filed.status === 'refused')
    finish(
      'refused',
      `${input.file.name} refused (${outcome.kind === 'refused' ? outcome.code : ''}), filed as ${filed.inputPath}${review ? `, waiting in the review queue as ${review}` : ''}`,
    );
  else
    finish(
      outcome.kind === 'done' && outcome.valid === false ? 'invalid' : 'valid',
      `${input.file.name} → ${filed.resultPath ?? filed.reportPath}`,
    );
  return { ...filed, ...(mail ? { mail } : {}) };
}

async function runOperation(input: ConnectorFileInput, staged: StagedConnectorFile): Promise<ConnectorOutcome> {
  const { ctx } = input;
  const child = { workflowId: `${input.operation}-${workflowInfo().workflowId}` };
  switch (input.operation) {
    case convertOperation.name: {
      const fileType = binary(staged);
      const r = await executeChild(convertToZugferd, {
        ...child,
        args: [{ ctx, fileBlobKey: staged.blobKey, fileType, fileName: input.file.name }],
      });
      return { kind: 'done', resultBlobKey: r.pdfBlobKey, filled: r.filled };
    }
    case analyseOperation.name: {
      const analysis = await executeChild(analyseInvoiceFile, {
        ...child,
        args: [{ ctx, fileBlobKey: staged.blobKey, fileType: binary(staged), withLineItems: input.options.withLineItems ?? true }],
      });
      return { kind: 'done', analysis };
    }
    case VALIDATE: {
      const report =
        staged.kind === 'xml'
          ? await executeChild(validateXInvoice, { ...child, args: [{ ctx, xmlBlobKey: staged.blobKey }] })
          : await executeChild(validateZugferd, { ...child, args: [{ ctx, pdfBlobKey: staged.blobKey, compareText: true }] });
      return { kind: 'done', valid: report.valid, findings: report.findings, artefacts: report.artefacts };
    }
    case createXInvoiceOperation.name: {
      const r = await executeChild(createXInvoice, {
        ...child,
        args: [{ ctx, invoiceBlobKey: staged.blobKey, syntax: input.options.syntax ?? 'CII', fileName: input.file.name }],
      });
      return {
        kind: 'done',
        resultBlobKey: r.xmlBlobKey,
        valid: r.report.valid,
        findings: r.report.findings,
        artefacts: r.report.artefacts,
      };
    }
    case EXTRACT_JSON: {
      const r = await executeChild(extractZugferd, { ...child, args: [{ ctx, pdfBlobKey: staged.blobKey }] });
      if (!r.invoiceBlobKey)
        return {
          kind: 'refused',
          code: 'XML_NOT_ZUGFERD',
          message: r.problem ?? 'The embedded XML does not map onto an EN 16931 invoice.',
        };
      return { kind: 'done', resultBlobKey: r.invoiceBlobKey };
    }
  }
}

/**
 * A conversion refused for values a person can settle waits for one (workflows/review.ts), as a
 * child that outlives this workflow: its id is this one's, prefixed, so a file enters the queue
 * once. Answers the review's workflow id, or undefined where the route keeps no queue.
 */
async function startReview(
  input: ConnectorFileInput & { activityQueue: string },
  refusal: Extract<ConnectorOutcome, { kind: 'refused' }>,
  inputPath: string,
): Promise<string | undefined> {
  if (!input.reviewDays || input.operation !== convertOperation.name || !REVIEWABLE.has(refusal.code)) return undefined;
  const workflowId = `review-${workflowInfo().workflowId}`;
  try {
    await startChild(reviewConversion, {
      workflowId,
      args: [
        {
          ctx: input.ctx,
          origin: { kind: 'connector', route: input.route, file: { ...input.file, path: inputPath }, activityQueue: input.activityQueue },
          refusal: {
            code: refusal.code,
            message: refusal.details?.userMessage ?? refusal.message,
            ...(refusal.details?.fields ? { fields: refusal.details.fields } : {}),
          },
          keepDays: input.reviewDays,
        },
      ],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      // Running until the review says it waits (awaiting-review): the queue lists it from then on.
      typedSearchAttributes: startAttributes(reviewOperation.name, input.ctx.accountId, { route: input.route, name: input.file.name }),
      staticSummary: `review of a refused conversion on route ${input.route}`,
      memo: { requestId: input.ctx.requestId },
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return workflowId;
}

/** The stage activity only hands binary kinds to the operations that take files. */
function binary(staged: StagedConnectorFile): 'pdf' | 'png' | 'jpeg' | 'tiff' {
  if (staged.kind === 'xml' || staged.kind === 'json')
    throw ApplicationFailure.nonRetryable(`A ${staged.kind} file cannot be read as an invoice document`, 'UNSUPPORTED_FILE_TYPE');
  return staged.kind;
}

/** The refusal a failed step carries (its ApplicationFailure type is our code); anything else is an internal error. */
function refusalOf(err: unknown): ConnectorOutcome {
  let cause: unknown = err;
  while (cause instanceof ChildWorkflowFailure || cause instanceof ActivityFailure) cause = cause.cause;
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as RefusalDetails | undefined;
    return { kind: 'refused', code: cause.type ?? 'INTERNAL_ERROR', message: cause.message, ...(details ? { details } : {}) };
  }
  return { kind: 'refused', code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) };
}
