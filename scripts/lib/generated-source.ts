import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';

/** A generated module, written as the repository's formatter writes it, so that the style check passes on it as committed. */
export async function writeGenerated(file: string, source: string): Promise<void> {
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(source, { ...options, filepath: file }));
}
