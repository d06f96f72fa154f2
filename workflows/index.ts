// The worker's workflow bundle: every workflow type the service runs.
export * from './xrechnung.js';
// Only the workflow types: deliverIfRequested is a helper that create workflows call.
export { deliverMail, sendMessage } from './mail.js';
export * from './zugferd.js';
export * from './render.js';
export * from './analysis.js';
export { convertToZugferd } from './convert.js';
export { processConnectorFile } from './connector-file.js';
export { reviewConversion } from './review.js';
export { watchRoute } from './watch-route.js';
export { retention } from './retention.js';
