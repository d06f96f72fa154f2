import type { SqlValue } from './database.js';

/**
 * Keyset pagination on (created_at, id), newest first, shared by every listing: pages stay
 * stable while new rows arrive, and the cost does not grow with the page number. The cursor is
 * the last row's key, base64url-encoded; it is parsed strictly because it comes from callers.
 */

export class InvalidCursorError extends Error {
  constructor() {
    super('Invalid pagination cursor');
  }
}

interface Key {
  createdAt: number;
  id: string;
}

const MAX_PAGE_SIZE = 200;

/** A caller's page size, 50 when not given, clamped to 1…200. */
export const pageSize = (limit: number | undefined): number => Math.min(Math.max(Math.trunc(limit ?? 50), 1), MAX_PAGE_SIZE);

/** The condition for the rows after the cursor's (older ones), its values appended to `params`. */
export function afterCursor(cursor: string, params: SqlValue[]): string {
  const after = decodeCursor(cursor);
  const c = params.push(after.createdAt);
  const i = params.push(after.id);
  return `(created_at < $${c} OR (created_at = $${c} AND id < $${i}))`;
}

/** The cursor for the page after `rows` (fetched with one row more than the page holds), or null on the last page. */
export function nextCursor(rows: { length: number }, page: ReadonlyArray<Key>): string | null {
  const last = page.at(-1);
  return rows.length > page.length && last ? Buffer.from(`${last.createdAt}:${last.id}`).toString('base64url') : null;
}

function decodeCursor(cursor: string): Key {
  const match = /^(\d{1,15}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match?.[1] || !match[2]) throw new InvalidCursorError();
  return { createdAt: Number(match[1]), id: match[2] };
}
