import type { StepTable } from './steps.js';

/**
 * One operation of the service, as every layer names it: the route (operationId, the
 * Idempotency-Key's hash), the job that starts it (workflow id prefix, EinvoiceOperation search
 * attribute), the workflow (usage records, its steps' profiles) and the connectors. A definition
 * imports no Temporal and no Koa, so each of them may read it; the workflow bundle too.
 */
export interface Operation<Input = unknown, Output = unknown, Name extends string = string> {
  /** What clients, the Temporal UI and the usage records call it. A wire name: never renamed. */
  readonly name: Name;
  /** The workflow function's name, which Temporal records as the workflow type: never renamed (histories in flight replay by it). */
  readonly workflowType: string;
  /** Each step the workflow calls (an activity's name) and how it is timed, retried and queued. */
  readonly steps: StepTable;
  /** Never set: carries the workflow's input and output types to whoever starts it (src/jobs/submit/run-workflow.ts). */
  readonly types?: { input: Input; output: Output };
}

/**
 * An operation of that input and output. Curried, so that the types are given and the name and
 * step table are inferred as written (a literal name, the step names the workflow may call).
 */
export function defineOperation<Input, Output>() {
  return <const Name extends string, const Steps extends StepTable>(definition: {
    name: Name;
    workflowType: string;
    steps: Steps;
  }): Omit<Operation<Input, Output, Name>, 'steps'> & { readonly steps: Steps } => definition;
}

export type InputOf<O extends Operation> = NonNullable<O['types']>['input'];
export type OutputOf<O extends Operation> = NonNullable<O['types']>['output'];

/** The workflow function an operation's definition describes. */
export type WorkflowOf<O extends Operation> = (input: InputOf<O>) => Promise<OutputOf<O>>;
