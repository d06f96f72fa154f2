/** Travels with every workflow and activity input so that logs of one request line up across API, workflow and activities. */
export interface RequestContext {
  requestId: string;
  accountId: string;
}
