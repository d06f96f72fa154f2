import type { Config } from '../config.js';
import type { RouteStatus } from '../../connectors/status.js';
import type { JobDeps } from '../jobs/submit/run-workflow.js';
import type { TemporalUi } from '../temporal/ui.js';

/** What route handlers use: the job layer's dependencies and the API's own. Built once in main.ts; tests build the same from real components. */
export interface Services extends JobDeps {
  config: Config;
  signingSecret: string;
  version: string;
  /** The folder connectors' routes of the installation; undefined while Temporal does not answer. */
  connectorStatus: () => Promise<RouteStatus[] | undefined>;
  /** Links to workflows in the Temporal Web UI, where it answers. */
  temporalUi: TemporalUi;
}
