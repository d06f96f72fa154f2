import { ConversionRefusal, prepareForZugferd, type PrepareOptions } from '../../src/conversion/convertible.js';
import type { Invoice } from '../../src/invoice/model.js';

/** The refusal prepareForZugferd throws for the invoice; fails the test when it prepares it instead. */
export function refusal(invoice: Invoice, opts: PrepareOptions = {}): ConversionRefusal {
  try {
    prepareForZugferd(invoice, opts);
  } catch (err) {
    if (err instanceof ConversionRefusal) return err;
    throw err;
  }
  throw new Error('not refused');
}
