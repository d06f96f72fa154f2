/**
 * Whether a PDF is encrypted (a password, or owner restrictions), told from its trailer before
 * anything parses it: encryption is declared by /Encrypt in the trailer dictionary, or in the
 * dictionary of a cross-reference stream (PDF 1.5+), and both are plain text in the file.
 * An encrypted PDF cannot become PDF/A, and with a user password it cannot even be read.
 */
export function isEncryptedPdf(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  for (const m of text.matchAll(/trailer([\s\S]*?)startxref/g)) if (/\/Encrypt\b/.test(m[1]!)) return true;
  for (const m of text.matchAll(/\/Type\s*\/XRef\b/g)) {
    const start = text.lastIndexOf(' obj', m.index);
    const end = text.indexOf('stream', m.index);
    if (start >= 0 && end > m.index && /\/Encrypt\b/.test(text.slice(start, end))) return true;
  }
  return false;
}
