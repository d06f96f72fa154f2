import type { Queryable } from '../storage/database.js';
import { verifyToken, type TokenIdentity } from './tokens.js';

/**
 * The one accepted way to authenticate is `Authorization: Bearer <token>`:
 *
 * - `Authorization: Bearer <valid token>` → the identity. The scheme name is matched
 *   case-insensitively (`bearer` works too), as RFC 9110 §11.1 requires of auth schemes.
 * - `Authorization: <token>` without a scheme, or another scheme (Basic, …) → 403 AUTH_SCHEME_INVALID.
 * - No Authorization but an `authtoken` header → 403 AUTH_SCHEME_INVALID.
 * - Neither header (or only empty ones) → 401 AUTH_MISSING.
 * - Bearer with an empty, malformed, unknown or revoked token → 401 AUTH_INVALID.
 *
 * 403 for a wrong scheme tells a client that sent a credential that the way it sent it will
 * never work, which is a different fix from a wrong or missing token (401). When Authorization
 * is present it alone decides; a stray `authtoken` next to it is ignored.
 */

export type AuthErrorCode = 'AUTH_MISSING' | 'AUTH_INVALID' | 'AUTH_SCHEME_INVALID';

export class AuthError extends Error {
  readonly status: 401 | 403;

  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.status = code === 'AUTH_SCHEME_INVALID' ? 403 : 401;
  }
}

/** Node's IncomingHttpHeaders (lower-case names) and Koa's ctx.headers fit this shape. */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

const BEARER = /^Bearer(?:\s+(.*))?$/i;

export async function authenticate(headers: RequestHeaders, db: Queryable): Promise<TokenIdentity> {
  const token = bearerToken(headers);
  const identity = await verifyToken(db, token);
  if (!identity) throw new AuthError('AUTH_INVALID', 'The API token is invalid or revoked');
  return identity;
}

/** The token of a well-formed Bearer header; throws for every other shape of credentials. */
export function bearerToken(headers: RequestHeaders): string {
  const authorization = single(headers['authorization']);
  if (authorization === undefined) {
    if (single(headers['authtoken']) !== undefined) {
      throw new AuthError(
        'AUTH_SCHEME_INVALID',
        'Send the token as "Authorization: Bearer <token>"; the authtoken header is not supported',
      );
    }
    throw new AuthError('AUTH_MISSING', 'Missing "Authorization: Bearer <token>" header');
  }
  const match = BEARER.exec(authorization);
  if (!match) throw new AuthError('AUTH_SCHEME_INVALID', 'Use the Bearer scheme: "Authorization: Bearer <token>"');
  if (!match[1]) throw new AuthError('AUTH_INVALID', 'The Bearer credentials are empty');
  return match[1];
}

/** A header's value, trimmed; empty or absent → undefined. A repeated header is ambiguous, so it is invalid. */
function single(value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    if (value.length > 1) throw new AuthError('AUTH_INVALID', 'Credentials header sent more than once');
    return single(value[0]);
  }
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
