/** Where a job came from: an API request, or a file a connector route picked up (named by its content's hash). */
export type JobSource = { kind: 'request'; requestId: string } | { kind: 'connector'; route: string; file: string; hash: string };

/** Travels with every workflow and activity input so that logs of one job line up across entry point, workflow and activities. */
export interface RequestContext {
  /** The request id, or the id the job layer gave a connector's job. */
  requestId: string;
  accountId: string;
  /** Named in the usage records the job leads to. */
  source: JobSource;
}
