/**
 * SPEC.md on createZugferdFromPdf's fileName: control characters, quotes and
 * backslashes become spaces, '/' becomes '_', at most 200 characters; default
 * invoice.pdf. The result names the output `<name>-zugferd.pdf`.
 */

export const DEFAULT_FILE_NAME = 'invoice.pdf';
const MAX_LENGTH = 200;
/** Extensions of the input types: the output is a PDF whatever came in. */
const INPUT_EXTENSION = /\.(pdf|png|jpe?g|tiff?)$/i;

export function sanitiseFileName(name: unknown): string {
  if (typeof name !== 'string') return DEFAULT_FILE_NAME;
  const cleaned = [...name.replace(/[\u0000-\u001f\u007f"'\\]/g, ' ').replace(/\//g, '_')].slice(0, MAX_LENGTH).join('').trim();
  return cleaned || DEFAULT_FILE_NAME;
}

/** `Rechnung 4711.pdf` → `Rechnung 4711-zugferd.pdf`. */
export function zugferdFileName(sanitised: string): string {
  return `${sanitised.replace(INPUT_EXTENSION, '') || 'invoice'}-zugferd.pdf`;
}

/**
 * Content-Disposition for a name that may hold any Unicode: an ASCII fallback
 * for old clients and the exact name as RFC 6266 / 5987 `filename*`.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
