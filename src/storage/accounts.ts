import { randomBytes } from 'node:crypto';
import type { Queryable } from './database.js';

/** An account owns tokens, documents and usage. Its id is random: never personal data. */
export interface Account {
  id: string;
  name: string;
  /** Epoch milliseconds. */
  createdAt: number;
}

interface AccountRow {
  id: string;
  name: string;
  created_at: number;
}

const toAccount = (r: AccountRow): Account => ({ id: r.id, name: r.name, createdAt: r.created_at });

export function newAccountId(): string {
  return `acc_${randomBytes(16).toString('hex')}`;
}

export async function createAccount(db: Queryable, name: string, now = Date.now()): Promise<Account> {
  const account = { id: newAccountId(), name, createdAt: now };
  await db.query('INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)', [account.id, name, now]);
  return account;
}

export async function getAccount(db: Queryable, id: string): Promise<Account | undefined> {
  const { rows } = await db.query<AccountRow>('SELECT id, name, created_at FROM accounts WHERE id = $1', [id]);
  return rows[0] && toAccount(rows[0]);
}

/** Oldest first: the order in which operators created them. */
export async function listAccounts(db: Queryable): Promise<Account[]> {
  const { rows } = await db.query<AccountRow>('SELECT id, name, created_at FROM accounts ORDER BY created_at, id');
  return rows.map(toAccount);
}
