/** File types the service reads, detected from content only (never from names or MIME types). */
export type FileType = 'pdf' | 'png' | 'jpeg' | 'tiff';

export const FILE_TYPE_LABEL: Record<FileType, string> = { pdf: 'PDF', png: 'PNG', jpeg: 'JPEG', tiff: 'TIFF' };

export type Detected = { supported: true; type: FileType } | { supported: false; label: string };

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);

// Formats people do send to invoice services; naming them makes the error useful.
const UNSUPPORTED: Array<[label: string, test: (b: Uint8Array) => boolean]> = [
  ['HEIC/HEIF image', (b) => ascii(b, 4, 8) === 'ftyp' && /^(heic|heix|hevc|hevx|heim|heis|mif1|msf1|avif)$/.test(ascii(b, 8, 12))],
  ['WEBP image', (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP'],
  ['GIF image', (b) => ascii(b, 0, 4) === 'GIF8'],
  ['BMP image', (b) => ascii(b, 0, 2) === 'BM'],
  ['ZIP archive or office document', (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04])],
  ['legacy office document', (b) => startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])],
  ['SVG or XML document', (b) => /^\s*(<\?xml|<svg|<!DOCTYPE)/i.test(ascii(b, 0, 64))],
];

/**
 * PDF readers accept a header anywhere in the first 1024 bytes (ISO 32000 allows
 * leading garbage in practice), so we do too; the other formats must start with
 * their signature.
 */
export function detectFileType(bytes: Uint8Array): Detected {
  if (ascii(bytes, 0, 1024).includes('%PDF-')) return { supported: true, type: 'pdf' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { supported: true, type: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { supported: true, type: 'jpeg' };
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return { supported: true, type: 'tiff' };
  for (const [label, test] of UNSUPPORTED) if (test(bytes)) return { supported: false, label };
  return { supported: false, label: 'unrecognised file' };
}
