/** Reads `a.b[0].c` style paths of a plain object, such as an invoice (string leaves only). */
export function stringAt(target: unknown, path: string): string | undefined {
  let node: unknown = target;
  for (const part of path.split('.')) {
    const m = /^(\w+)\[(\d+)\]$/.exec(part);
    node = m
      ? (node as Record<string, unknown[]> | undefined)?.[m[1]!]?.[Number(m[2])]
      : (node as Record<string, unknown> | undefined)?.[part];
  }
  return typeof node === 'string' ? node : undefined;
}
