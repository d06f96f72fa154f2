import { analysisActivities } from './analysis.js';
import { convertActivities } from './convert.js';
import type { ActivityDeps } from './deps.js';
import { documentActivities } from './documents.js';
import { mailActivities } from './mail.js';
import { renderActivities } from './render.js';
import { retentionActivities } from './retention.js';
import { xrechnungActivities } from './xrechnung.js';
import { zugferdActivities } from './zugferd.js';

export type { ActivityDeps } from './deps.js';

/** Every activity the worker registers, bound to its dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...xrechnungActivities(deps),
    ...documentActivities(deps),
    ...zugferdActivities(deps),
    ...mailActivities(deps),
    ...renderActivities(deps),
    ...analysisActivities(deps),
    ...convertActivities(deps),
    ...retentionActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
