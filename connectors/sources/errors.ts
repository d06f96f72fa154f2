/**
 * The few failures the connector engine acts on differently: a lost claim race
 * (SourceGoneError: skip), an occupied target (TargetExistsError: pick another
 * name), an oversized input (FileTooLargeError: file to error/), and a source
 * that cannot be reached (SourceUnavailableError: retry later). Anything else
 * is a bug or a misconfiguration and surfaces as it is.
 */

export class SourceError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class TargetExistsError extends SourceError {
  constructor(readonly path: string) {
    super(`${path} already exists`);
  }
}

export class SourceGoneError extends SourceError {
  constructor(
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(`${path} does not exist (any more)`, options);
  }
}

export class FileTooLargeError extends SourceError {
  constructor(
    readonly path: string,
    readonly maxBytes: number,
  ) {
    super(`${path} is larger than the limit of ${maxBytes} bytes`);
  }
}

/** Connection-level trouble: worth retrying, unlike the errors above. */
export class SourceUnavailableError extends SourceError {
  readonly retryable = true;
  constructor(
    readonly where: string,
    cause: unknown,
  ) {
    super(`${where} is not reachable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Socket-level error codes from Node and the SDKs that mean "the server is not there (right now)". */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

export function isConnectionError(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    // AggregateError from happy-eyeballs connects carries the per-address failures.
    if (e instanceof AggregateError && e.errors.some(isConnectionError)) return true;
  }
  return false;
}
