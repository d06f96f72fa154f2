/** Where a job came from: an API request, or a file a connector route picked up (named by its content's hash). */
export type JobSource = { kind: 'request'; requestId: string } | { kind: 'connector'; route: string; file: string; hash: string };
