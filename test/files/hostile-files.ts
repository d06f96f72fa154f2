/** Files made to exhaust a reader, for the intake limit tests. */

/** A PDF of `pages` empty pages, written as text (pdf-lib would take long to make 50,000). */
export function manyPagesPdf(pages: number): Buffer {
  const parts = ['%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n'];
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  parts.push(`2 0 obj << /Type /Pages /Count ${pages} /Kids [${kids}] >> endobj\n`);
  for (let i = 0; i < pages; i++) parts.push(`${i + 3} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\n`);
  parts.push('trailer << /Root 1 0 R >>\n%%EOF\n');
  return Buffer.from(parts.join(''), 'latin1');
}
