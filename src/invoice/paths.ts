const INDEXED = /^(\w+)\[(\d+)\]$/;

/** One step down an `a.b[0].c` style path. */
function step(node: unknown, part: string): unknown {
  const m = INDEXED.exec(part);
  return m
    ? (node as Record<string, unknown[]> | undefined)?.[m[1]!]?.[Number(m[2])]
    : (node as Record<string, unknown> | undefined)?.[part];
}

/** Reads `a.b[0].c` style paths of a plain object, such as an invoice (string leaves only). */
export function stringAt(target: unknown, path: string): string | undefined {
  const node = path.split('.').reduce(step, target);
  return typeof node === 'string' ? node : undefined;
}

/** Removes the value at an `a.b[0].c` style path that ends in a plain key, where it is there. */
export function deleteAt(target: unknown, path: string): void {
  const parts = path.split('.');
  const key = parts.pop()!;
  const holder = parts.reduce(step, target) as Record<string, unknown> | undefined;
  if (holder) delete holder[key];
}

/** Every string leaf of a plain object, by its `a.b[0].c` path; a list of strings is one leaf, its items joined by ", ". */
export function leaves(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) out.set(path, value.join(', '));
    else value.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
  } else if (typeof value === 'string') out.set(path, value);
  return out;
}
