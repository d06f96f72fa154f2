import type { FileType } from '../files/file-type.js';
import type { GrayBitmap } from './bitmap.js';
import type { DocumentOutline } from './document-reader.js';

/**
 * The messages between the service and a sandbox child (sandbox-child.ts). The child says
 * `ready` once it has loaded the reader, before any document is sent to it; then it gets one
 * `open` and any number of `render`s.
 */

export type ParentMessage = { kind: 'open'; bytes: Uint8Array; type: FileType } | { kind: 'render'; page: number };

export type ChildMessage =
  | { kind: 'ready' }
  | { kind: 'opened'; outline: DocumentOutline }
  | { kind: 'rendered'; page: number; bitmap: GrayBitmap }
  | { kind: 'failed'; message: string };
