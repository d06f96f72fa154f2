/** A stored file's default name from the invoice number: safe characters only, at most 100 of them. */
export function nameFromNumber(invoiceNumber: string | undefined): string | undefined {
  const cleaned = invoiceNumber?.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
  return cleaned || undefined;
}
