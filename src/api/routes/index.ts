import type { RouteSpec } from '../route.js';
import type { Services } from '../services.js';
import { analysisRoutes } from './analysis.js';
import { appRoutes } from './app.js';
import { convertRoutes } from './convert.js';
import { deliveryRoutes } from './delivery.js';
import { documentRoutes } from './documents.js';
import { metaRoutes } from './meta.js';
import { reviewRoutes } from './review.js';
import { templateRoutes } from './templates.js';
import { viewRoutes } from './view.js';
import { xrechnungRoutes } from './xrechnung.js';
import { zugferdRoutes } from './zugferd.js';

/** The whole HTTP interface; the OpenAPI document is generated from this list. */
export function allRoutes(services: Services): RouteSpec[] {
  const routes: RouteSpec[] = [
    ...xrechnungRoutes(services),
    ...zugferdRoutes(services),
    ...deliveryRoutes(services),
    ...templateRoutes(services),
    ...analysisRoutes(services),
    ...convertRoutes(services),
    ...documentRoutes(services),
    ...reviewRoutes(services),
    ...viewRoutes(services),
    ...appRoutes(),
    ...metaRoutes(services, () => routes),
  ];
  return routes;
}
