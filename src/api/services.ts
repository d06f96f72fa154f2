import type { Client } from '@temporalio/client';
import type { Config } from '../config.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { Storage } from '../storage/index.js';

/** What route handlers use. Built once in main.ts; tests build the same from real components. */
export interface Services {
  config: Config;
  temporal: Client;
  blobs: BlobStore;
  storage: Storage;
  signingSecret: string;
  version: string;
}
