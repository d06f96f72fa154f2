/**
 * Source paths are relative, '/'-separated and cannot climb out of the root,
 * whatever the backend: a route config naming '../etc' is refused here once
 * instead of in every adapter.
 */

export function segments(path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new Error(`source path ${JSON.stringify(path)} must not contain '..'`);
  return parts;
}

export function normalise(path: string): string {
  return segments(path).join('/');
}

export function join(folder: string, name: string): string {
  return normalise(`${folder}/${name}`);
}

export function splitPath(path: string): { folder: string; name: string } {
  const parts = segments(path);
  const name = parts.pop();
  if (!name) throw new Error(`source path ${JSON.stringify(path)} names no file`);
  return { folder: parts.join('/'), name };
}
