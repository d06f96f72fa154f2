import { AuthError, authenticate } from '../auth/authenticate.js';
import type { Storage } from '../storage/index.js';
import { ApiError } from './errors.js';
import type { Principal } from './route.js';

/** Token checks of src/auth, answered in the API's error envelope. */
export function createAuthenticator(storage: Storage) {
  return async (headers: Record<string, string | string[] | undefined>): Promise<Principal> => {
    try {
      const { accountId, tokenId } = await authenticate(headers, storage.db);
      return { accountId, tokenId };
    } catch (err) {
      if (err instanceof AuthError) throw new ApiError(err.code, { detail: err.message });
      throw err;
    }
  };
}
