/*
 * The file-name rules of every entry point, in one place so that they cannot drift apart:
 * names derived from invoice data, names a caller uploads with a file, and names a caller
 * chooses for a stored document (the zod field in src/api/file-names.ts).
 */

export const DEFAULT_FILE_NAME = 'invoice.pdf';
const MAX_LENGTH = 200;
/** Extensions of the input types: the output is a PDF whatever came in. */
const INPUT_EXTENSION = /\.(pdf|png|jpe?g|tiff?)$/i;

/**
 * An uploaded file's name (createZugferdFromPdf's fileName): control characters, quotes and
 * backslashes become spaces, '/' becomes '_', at most 200 characters; default invoice.pdf.
 */
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
 * A file-system-safe stem from invoice data (invoice number, document reference): runs of other
 * characters than letters, digits, '.', '_' and '-' become '_', at most 100 of them; undefined when
 * nothing is left.
 */
export function safeFileStem(text: string | undefined): string | undefined {
  const cleaned = text?.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
  return cleaned || undefined;
}
