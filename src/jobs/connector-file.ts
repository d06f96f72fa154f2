import type { WorkflowHandle } from '@temporalio/client';
import { processConnectorFile } from '../../workflows/connector-file.js';
import type { ConnectorFileInput } from './contracts.js';
import type { Job, JobDeps } from './job.js';
import { startWorkflow } from './run-workflow.js';

export const CONNECTOR_FILE_OPERATION = 'connectorFile';

export interface ConnectorFileOrder extends Omit<ConnectorFileInput, 'ctx'> {
  /** Where the workflow's source steps run: the connector processes' queue. */
  activityQueue: string;
}

/**
 * A file a connector route claimed: its workflow, named after the route and the content
 * (`connectorFile-<route>-<hash>`), runs the route's operation and files the result. It runs on
 * its own, long after the look that found the file; a second start of a file under way throws
 * WorkflowExecutionAlreadyStartedError, which the connector takes as "already in hand".
 */
export async function startConnectorFile(deps: JobDeps, job: Job, order: ConnectorFileOrder): Promise<WorkflowHandle> {
  return startWorkflow(deps, job, processConnectorFile, {
    operation: CONNECTOR_FILE_OPERATION,
    input: order,
    summary: `${order.operation} of a file on route ${order.route}`,
  });
}
