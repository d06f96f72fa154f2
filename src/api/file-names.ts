import { z } from 'zod';

/**
 * The optional field in which a caller names the document a create endpoint makes: no paths,
 * quotes or control characters, at most 200 characters, and the document's extension appended
 * when it lacks it, so a download is named for what it is.
 */
export function storedFileName(extension: 'xml' | 'pdf', defaultName: string) {
  const suffix = new RegExp(`\\.${extension}$`, 'i');
  return z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^/\\\u0000-\u001f"]+$/, 'no paths, quotes or control characters')
    .transform((name) => (suffix.test(name) ? name : `${name}.${extension}`))
    .optional()
    .meta({
      description: `File name of the ${extension.toUpperCase()} (".${extension}" is appended when missing); default ${defaultName}`,
    });
}

/**
 * Content-Disposition for a name that may hold any Unicode: an ASCII fallback
 * for old clients and the exact name as RFC 6266 / 5987 `filename*`.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
