import {
  ActivityFailure,
  ApplicationFailure,
  ParentClosePolicy,
  TimeoutFailure,
  patched,
  sleep,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { MailOutcome, MailRequest, SendError } from '../src/mail/types.js';
import type { RequestContext } from '../src/operations/context.js';
import { deliverMailOperation, type DeliverMailInput, type SendMessageInput } from '../src/operations/mail.js';
import { ACCOUNT, OPERATION, OUTCOME } from '../src/temporal/search-attributes.js';
import { finish } from './outcome.js';
import { stepsOf } from './steps.js';

/**
 * E-mail delivery. Each send is its own child workflow (`deliverMail`), abandoned by its parent
 * when the parent finishes: the request that asked for the mail waits for it a short while
 * (WAIT_FOR_MAIL) and then answers, while temporary SMTP failures go on being retried for up
 * to a day. Nothing here can fail the parent: a created document is never lost to a mail.
 */

// The send's own steps; a parent that asks for an e-mail records it with the same step.
const { recordMailSend, failMailSend, sendMail } = stepsOf(deliverMailOperation.steps);

/** How long a request waits for its e-mail before answering `queued`. */
const WAIT_FOR_MAIL = '15 seconds';

/**
 * The parent records the send before it starts this workflow (so that whatever it answers names
 * a send that exists); runs started before that change record it here.
 */
const RECORDED_BY_PARENT = 'send-recorded-by-parent';

/** One send: send it (with retries), record a final failure. */
export async function deliverMail(input: DeliverMailInput): Promise<MailOutcome> {
  if (!patched(RECORDED_BY_PARENT)) await recordMailSend(input);
  try {
    await sendMail({ ctx: input.ctx, sendId: input.sendId });
    finish('sent', 'e-mail accepted');
    return { sendId: input.sendId, status: 'sent' };
  } catch (err) {
    const error = sendError(err);
    await failMailSend({ ctx: input.ctx, sendId: input.sendId, error });
    finish('failed', `e-mail failed: ${error.code}`);
    return { sendId: input.sendId, status: 'failed' };
  }
}

function sendError(err: unknown): SendError {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  // Retries ran out (the schedule-to-close timeout): the last failure was a temporary one.
  if (cause instanceof TimeoutFailure || (cause instanceof ApplicationFailure && cause.type === 'SMTP_TEMPORARY')) {
    return {
      code: 'SMTP_UNAVAILABLE',
      message: 'The mail server did not accept the message in 24 hours of retrying; the response shows its last reply.',
    };
  }
  if (cause instanceof ApplicationFailure && cause.type) return { code: cause.type, message: cause.message };
  return { code: 'INTERNAL_ERROR', message: cause instanceof Error ? cause.message : String(cause) };
}

/**
 * Sends the e-mail a create workflow was asked for, with `documentId` attached; call it after
 * the document is stored. Returns undefined when no e-mail was requested. Never throws.
 */
export async function deliverIfRequested(
  ctx: RequestContext,
  request: MailRequest | undefined,
  documentId?: string,
): Promise<MailOutcome | undefined> {
  return request ? deliver(ctx, request, documentId) : undefined;
}

/** The delivery endpoint and the resend operation: a workflow that only sends. */
export async function sendMessage(input: SendMessageInput): Promise<MailOutcome> {
  const outcome = await deliver(input.ctx, input.mail, input.documentId);
  finish(outcome.status, `e-mail ${outcome.status}`);
  return outcome;
}

async function deliver(ctx: RequestContext, request: MailRequest, documentId: string | undefined): Promise<MailOutcome> {
  const sendId = uuid4();
  try {
    // Recorded before any answer: a `queued` answer (the worker died, the server is slow) names a send the list shows.
    if (patched(RECORDED_BY_PARENT)) await recordMailSend({ ctx, sendId, request, documentId });
    const child = await startChild(deliverMail, {
      workflowId: `${workflowInfo().workflowId}-mail`,
      args: [{ ctx, sendId, request, documentId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: [
        { key: OPERATION, value: deliverMailOperation.name },
        { key: ACCOUNT, value: ctx.accountId },
        { key: OUTCOME, value: 'running' },
      ],
      staticSummary: request.resendOf ? 'Resend e-mail' : 'Send e-mail',
    });
    const outcome = await Promise.race([child.result(), sleep(WAIT_FOR_MAIL).then(() => undefined)]);
    return outcome ?? { sendId, status: 'queued' };
  } catch {
    // The child itself failed (not the mail: that is a result). Its record, if any, tells the rest.
    return { sendId, status: 'failed' };
  }
}
