import { randomUUID } from 'node:crypto';
import type { Queryable, SqlValue } from './database.js';

/** A stored file (the bytes live in the blob store under `blobKey`). */
export interface DocumentRecord {
  id: string;
  accountId: string;
  /** e.g. 'xrechnung-xml', 'zugferd-pdf'. */
  kind: string;
  blobKey: string;
  fileName: string;
  contentType: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  workflowId: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds; null: kept until deleted. */
  expiresAt: number | null;
  meta: Record<string, unknown>;
}

/** Without `id` a random UUID is used; workflows pass their own so that a retry reuses it. */
export type NewDocument = Omit<DocumentRecord, 'id' | 'createdAt' | 'workflowId' | 'expiresAt' | 'meta'> &
  Partial<Pick<DocumentRecord, 'id' | 'workflowId' | 'expiresAt' | 'meta'>>;

export interface DocumentPage {
  documents: DocumentRecord[];
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export class InvalidCursorError extends Error {
  constructor() {
    super('Invalid pagination cursor');
  }
}

interface DocumentRow {
  id: string;
  account_id: string;
  kind: string;
  blob_key: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  workflow_id: string | null;
  created_at: number;
  expires_at: number | null;
  meta: string;
}

const COLUMNS = 'id, account_id, kind, blob_key, file_name, content_type, size, sha256, workflow_id, created_at, expires_at, meta';
const MAX_PAGE_SIZE = 200;

const toDocument = (r: DocumentRow): DocumentRecord => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  blobKey: r.blob_key,
  fileName: r.file_name,
  contentType: r.content_type,
  size: r.size,
  sha256: r.sha256,
  workflowId: r.workflow_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  meta: JSON.parse(r.meta) as Record<string, unknown>,
});

export async function createDocument(db: Queryable, input: NewDocument, now = Date.now()): Promise<DocumentRecord> {
  const doc: DocumentRecord = {
    ...input,
    id: input.id ?? randomUUID(),
    createdAt: now,
    workflowId: input.workflowId ?? null,
    expiresAt: input.expiresAt ?? null,
    meta: input.meta ?? {},
  };
  await db.query(`INSERT INTO documents (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, [
    doc.id,
    doc.accountId,
    doc.kind,
    doc.blobKey,
    doc.fileName,
    doc.contentType,
    doc.size,
    doc.sha256,
    doc.workflowId,
    doc.createdAt,
    doc.expiresAt,
    JSON.stringify(doc.meta),
  ]);
  return doc;
}

/**
 * With `accountId`, a document of another account is not found (API calls);
 * without, any document is (signed download links, which carry their own authorisation).
 */
export async function getDocument(db: Queryable, id: string, accountId?: string): Promise<DocumentRecord | undefined> {
  const params: SqlValue[] = accountId === undefined ? [id] : [id, accountId];
  const scope = accountId === undefined ? '' : ' AND account_id = $2';
  const { rows } = await db.query<DocumentRow>(`SELECT ${COLUMNS} FROM documents WHERE id = $1${scope}`, params);
  return rows[0] && toDocument(rows[0]);
}

/**
 * Newest first. Keyset pagination on (created_at, id): pages stay stable while new
 * documents arrive, and the cost does not grow with the page number.
 */
export async function listDocuments(
  db: Queryable,
  accountId: string,
  options: { limit?: number; cursor?: string } = {},
): Promise<DocumentPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), MAX_PAGE_SIZE);
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  const params: SqlValue[] = after ? [accountId, after.createdAt, after.id, limit + 1] : [accountId, limit + 1];
  const keyset = after ? ' AND (created_at < $2 OR (created_at = $2 AND id < $3))' : '';
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM documents WHERE account_id = $1${keyset}
     ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  const documents = rows.slice(0, limit).map(toDocument);
  const last = documents.at(-1);
  return { documents, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

function encodeCursor(doc: DocumentRecord): string {
  return Buffer.from(`${doc.createdAt}:${doc.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const match = /^(\d{1,15}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match?.[1] || !match[2]) throw new InvalidCursorError();
  return { createdAt: Number(match[1]), id: match[2] };
}
