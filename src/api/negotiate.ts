/**
 * Which of the types a route can answer the request's Accept header prefers: highest quality,
 * then the header's order; the first offer (JSON) when the header is absent, names none of them
 * or is only a wildcard, so clients that send `Accept: *\/*` keep getting JSON.
 */
export function preferredType<T extends string>(accept: string | string[] | undefined, offers: readonly [T, ...T[]]): T {
  const header = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  let best: { type: T; q: number; index: number } | undefined;
  header.split(',').forEach((part, index) => {
    const [range = '', ...params] = part.trim().split(';');
    const type = offers.find((o) => o === range.trim().toLowerCase());
    if (!type) return;
    const q = Number(params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean) ?? 1);
    if (q > 0 && (!best || q > best.q)) best = { type, q, index };
  });
  return best?.type ?? offers[0];
}
