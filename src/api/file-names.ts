import { z } from 'zod';

/**
 * The name a caller gives a stored document: no paths, quotes or control characters, at most 200
 * characters, and the document's extension appended when it lacks it, so a download is named
 * for what it is.
 */
export function storedFileName(extension: 'xml' | 'pdf') {
  const suffix = new RegExp(`\\.${extension}$`, 'i');
  return z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^/\\\u0000-\u001f"]+$/, 'no paths, quotes or control characters')
    .transform((name) => (suffix.test(name) ? name : `${name}.${extension}`));
}
