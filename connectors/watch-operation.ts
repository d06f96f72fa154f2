import { defineOperation } from '../src/operations/operation.js';
import { ON_SOURCE } from '../src/operations/steps.js';
import type { ConnectorFileInput } from './file-operation.js';
import type { ConnectorOperation } from './operations.js';
import type { SourceEntry } from './sources/source.js';

/** The durable poller of one connector route (workflows/watch-route.ts): it looks at the route's folder and starts each claimed file's workflow. */

/** What a look leaves for the next one; a route's watcher carries it, across continue-as-new too. */
export interface LookState {
  /** What the look saw; files unchanged since are complete. */
  look: SourceEntry[];
  /** Files were arriving or waiting for an earlier copy: the next look must list the folder whatever changed. */
  pending: boolean;
  /** For a source with a change log (Google Drive): the token the next look asks what changed since. */
  changes?: string;
  /** Files in processing/ (path and size) whose workflow a look has started: not read again by the next. */
  inHand?: string[];
  /** Files of the route's kind in its folder that the look did not take (not complete yet). */
  waiting?: number;
}

export interface LookAtRouteInput {
  route: string;
  previous: LookState;
}

export interface RouteLook extends LookState {
  /** The files the look found without a workflow: the watcher starts one for each. */
  toStart: FileToStart[];
  /** When to look again: soon while files are pending (still being written, or waiting for an earlier copy), else the source's poll interval. */
  nextLookMs: { pending: number; idle: number };
}

/** A claimed file the ledger let through: new content, or content whose workflow may be under way already. */
export interface FileToStart {
  input: ConnectorFileInput;
  /** The ledger's name for the content's workflow: one workflow per route and content, however often the file is seen. */
  workflowId: string;
  /** The file in LookState.inHand once its workflow runs. */
  handKey: string;
  /** The ledger has this very file as the content's first copy; another copy waits for the first one's workflow to end. */
  firstCopy: boolean;
}

/** What a route's watcher tells of itself (its `routeState` query). */
export interface WatcherState {
  route: string;
  operation?: ConnectorOperation;
  lastLookAt?: string;
  waiting: number;
}

export interface WatchRouteInput {
  route: string;
  operation?: ConnectorOperation;
  activityQueue: string;
  /** The last look of the run before (continue-as-new). */
  state?: LookState;
}

/** Its workflow id is `watch-<route>`; a route unknown to the connector processes ends it. */
export const watchRouteOperation = defineOperation<WatchRouteInput, void>()({
  name: 'watchRoute',
  workflowType: 'watchRoute',
  steps: { lookAtRoute: ON_SOURCE },
});
