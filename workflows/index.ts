// The worker's workflow bundle: every workflow type the service runs.
export * from './xinvoice.js';
export * from './zugferd.js';
export * from './render.js';
export * from './analysis.js';
