import { randomUUID } from 'node:crypto';
import { nextValue } from './counters.js';
import { atomically, type Queryable, type SqlValue } from './database.js';
import { afterCursor, nextCursor, pageSize } from './keyset.js';

/** A stored file (the bytes live in the blob store under `blobKey`). */
export interface DocumentRecord {
  id: string;
  /**
   * Per-installation integer id, assigned at insert: unique, increasing in insertion (commit)
   * order, never reused. The API shows it where the SPEC wants an integer id.
   */
  number: number;
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
export type NewDocument = Omit<DocumentRecord, 'id' | 'number' | 'createdAt' | 'workflowId' | 'expiresAt' | 'meta'> &
  Partial<Pick<DocumentRecord, 'id' | 'workflowId' | 'expiresAt' | 'meta'>>;

export interface DocumentPage {
  documents: DocumentRecord[];
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  nextCursor: string | null;
}

interface DocumentRow {
  id: string;
  number: number | string;
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

const COLUMNS = 'id, number, account_id, kind, blob_key, file_name, content_type, size, sha256, workflow_id, created_at, expires_at, meta';
/** The counter (counters.ts) that numbers documents; migration 3 creates and backfills it. */
const DOCUMENT_COUNTER = 'documents';

const toDocument = (r: DocumentRow): DocumentRecord => ({
  id: r.id,
  number: Number(r.number),
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

/**
 * The next document number, for something created but not kept (a passthrough invoice): it is
 * numbered like a stored document, so its numbers never collide with one's.
 */
export function reserveDocumentNumber(tx: Queryable): Promise<number> {
  return nextValue(tx, DOCUMENT_COUNTER);
}

/** Inserts the document with the next document number; inside `db`'s transaction when `db` is one, else in its own. */
export async function createDocument(db: Queryable, input: NewDocument, now = Date.now()): Promise<DocumentRecord> {
  return atomically(db, async (tx) => {
    const doc: DocumentRecord = {
      ...input,
      id: input.id ?? randomUUID(),
      number: await nextValue(tx, DOCUMENT_COUNTER),
      createdAt: now,
      workflowId: input.workflowId ?? null,
      expiresAt: input.expiresAt ?? null,
      meta: input.meta ?? {},
    };
    await tx.query(`INSERT INTO documents (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, [
      doc.id,
      doc.number,
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
  });
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

/** By its integer number; `accountId` scopes it as in getDocument. */
export async function getDocumentByNumber(db: Queryable, number: number, accountId?: string): Promise<DocumentRecord | undefined> {
  if (!Number.isSafeInteger(number) || number < 1) return undefined;
  const params: SqlValue[] = accountId === undefined ? [number] : [number, accountId];
  const scope = accountId === undefined ? '' : ' AND account_id = $2';
  const { rows } = await db.query<DocumentRow>(`SELECT ${COLUMNS} FROM documents WHERE number = $1${scope}`, params);
  return rows[0] && toDocument(rows[0]);
}

/** The numbers of the given documents (by id) that exist; one query. */
export async function documentNumbers(db: Queryable, ids: readonly string[], accountId: string): Promise<Map<string, number>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const list = unique.map((_, i) => `$${i + 2}`).join(', ');
  const { rows } = await db.query<{ id: string; number: number | string }>(
    `SELECT id, number FROM documents WHERE account_id = $1 AND id IN (${list})`,
    [accountId, ...unique],
  );
  return new Map(rows.map((r) => [r.id, Number(r.number)]));
}

/** Newest first (keyset.ts), optionally only documents of one `kind`. */
export async function listDocuments(
  db: Queryable,
  accountId: string,
  options: { limit?: number; cursor?: string; kind?: string } = {},
): Promise<DocumentPage> {
  const limit = pageSize(options.limit);
  // The filters are part of the query, before LIMIT: a page is only short when it is the last.
  const params: SqlValue[] = [accountId];
  let where = 'account_id = $1';
  if (options.kind !== undefined) {
    params.push(options.kind);
    where += ` AND kind = $${params.length}`;
  }
  if (options.cursor !== undefined) where += ` AND ${afterCursor(options.cursor, params)}`;
  params.push(limit + 1);
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM documents WHERE ${where}
     ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  const documents = rows.slice(0, limit).map(toDocument);
  return { documents, nextCursor: nextCursor(rows, documents) };
}
