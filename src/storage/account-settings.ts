import type { Queryable } from './database.js';

/**
 * What an account has chosen for the review queue (README, "The review queue"): whether its
 * corrections are kept as labelled examples (default yes), and whether its own API conversions
 * enter the queue when refused (default no: the caller gets the refusal, as always).
 */

type Setting = 'keep_examples' | 'review_api_refusals';

async function read(db: Queryable, accountId: string, setting: Setting): Promise<boolean> {
  const { rows } = await db.query<Record<Setting, number>>(`SELECT ${setting} FROM accounts WHERE id = $1`, [accountId]);
  return Number(rows[0]?.[setting] ?? 0) === 1;
}

/** Answers whether the account exists. */
async function write(db: Queryable, accountId: string, setting: Setting, on: boolean): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE accounts SET ${setting} = $2 WHERE id = $1`, [accountId, on ? 1 : 0]);
  return rowCount > 0;
}

export const keepsExamples = (db: Queryable, accountId: string) => read(db, accountId, 'keep_examples');
export const setKeepsExamples = (db: Queryable, accountId: string, on: boolean) => write(db, accountId, 'keep_examples', on);
export const reviewsApiRefusals = (db: Queryable, accountId: string) => read(db, accountId, 'review_api_refusals');
export const setReviewsApiRefusals = (db: Queryable, accountId: string, on: boolean) => write(db, accountId, 'review_api_refusals', on);
