import { readFile } from 'node:fs/promises';
import { PDFName, PDFString, type PDFContext, type PDFDict } from 'pdf-lib';

/**
 * The sRGB OutputIntent PDF/A requires, so that DeviceRGB colours have a defined meaning: the
 * same profile and condition for rendered invoices, for PDF/A inputs that lack an intent, and
 * for Ghostscript's conversions (its pdfmark program).
 */

/** Shipped by Debian's Ghostscript (scripts/setup-pdf.sh installs it). */
export const SRGB_ICC_PROFILE = '/usr/share/color/icc/ghostscript/srgb.icc';
export const SRGB_OUTPUT_CONDITION = 'sRGB IEC61966-2.1';

/** Makes the sRGB intent the catalog's only OutputIntent. */
export async function setSrgbOutputIntent(context: PDFContext, catalog: PDFDict): Promise<void> {
  const icc = await readFile(SRGB_ICC_PROFILE).catch(() => {
    throw new Error(`${SRGB_ICC_PROFILE} is missing: run scripts/setup-pdf.sh`);
  });
  const profile = context.register(context.flateStream(icc, { N: 3 }));
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of(SRGB_OUTPUT_CONDITION),
    Info: PDFString.of(SRGB_OUTPUT_CONDITION),
    DestOutputProfile: profile,
  });
  catalog.set(PDFName.of('OutputIntents'), context.obj([context.register(intent)]));
}
