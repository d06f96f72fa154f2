import type { MailOutcome, MailRequest } from '../mail/types.js';
import type { RequestContext } from './context.js';
import { defineOperation } from './operation.js';
import { QUICK, SENDING } from './steps.js';

/** E-mail: one send as a workflow of its own, and the operations that only send (delivery, resend). */

export interface DeliverMailInput {
  ctx: RequestContext;
  sendId: string;
  request: MailRequest;
  /** The document to attach (create endpoints, resend). */
  documentId: string | undefined;
}

export interface SendMessageInput {
  ctx: RequestContext;
  mail: MailRequest;
  documentId?: string;
}

/** Recording is quick local I/O; sending runs on the mail queue, retried for up to a day. */
const DELIVERY_STEPS = { recordMailSend: QUICK, failMailSend: QUICK, sendMail: SENDING };

/** One send, the child workflow of whatever asked for the e-mail. */
export const deliverMailOperation = defineOperation<DeliverMailInput, MailOutcome>()({
  name: 'deliverMail',
  workflowType: 'deliverMail',
  steps: DELIVERY_STEPS,
});

const sendMessage = { workflowType: 'sendMessage', steps: DELIVERY_STEPS };
const define = defineOperation<SendMessageInput, MailOutcome>();

/** An e-mail without a document. */
export const deliveryOperation = define({ name: 'delivery', ...sendMessage });
/** The e-mail a create job sent with its document, once more. */
export const resendOperation = define({ name: 'resendEmail', ...sendMessage });
