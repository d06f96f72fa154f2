import { inflateSync } from 'node:zlib';
import type { FileType } from './file-type.js';
import { imageDimensions } from './image-header.js';
import { openTiff } from './tiff.js';

/**
 * What an untrusted file claims to be, read before anything parses or decodes it: how many pages
 * a PDF has, how many pixels an image has, how much its compressed streams inflate to. A
 * 50,000-page PDF, a gigapixel PNG or a zlib bomb is refused here in milliseconds, instead of
 * after a minute in a parser that runs into its time or memory limit.
 */

export interface IntakeLimits {
  /** MAX_PDF_PAGES */
  maxPdfPages: number;
  /** MAX_IMAGE_PIXELS: per image or TIFF page. */
  maxImagePixels: number;
  /** MAX_INFLATED_MEGABYTES, as bytes: all Flate streams of a PDF together. */
  maxInflatedBytes: number;
}

export const DEFAULT_INTAKE_LIMITS: IntakeLimits = { maxPdfPages: 500, maxImagePixels: 60_000_000, maxInflatedBytes: 256 * 1024 * 1024 };

/** Why the file is beyond the limits (a sentence for the user, naming the limit), or undefined. */
export function declaredSizeProblem(bytes: Uint8Array, type: FileType, limits: IntakeLimits): string | undefined {
  if (type === 'pdf') return pdfProblem(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits);
  if (type === 'tiff') return tiffProblem(bytes, limits);
  const size = imageDimensions(bytes, type);
  return size ? pixelProblem(size.width, size.height, limits, 'The image') : undefined;
}

function pixelProblem(width: number, height: number, limits: IntakeLimits, what: string): string | undefined {
  if (width * height <= limits.maxImagePixels) return undefined;
  return `${what} has ${width}×${height} pixels; at most ${limits.maxImagePixels.toLocaleString('en')} are read (MAX_IMAGE_PIXELS).`;
}

function tiffProblem(bytes: Uint8Array, limits: IntakeLimits): string | undefined {
  let pages;
  try {
    pages = openTiff(bytes, { maxPixels: limits.maxImagePixels }).pages;
  } catch {
    return undefined; // broken: the reader says why, in its own words
  }
  if (pages.length > limits.maxPdfPages)
    return `The TIFF has ${pages.length} pages; at most ${limits.maxPdfPages} are read (MAX_PDF_PAGES).`;
  for (const [i, page] of pages.entries()) {
    const problem = pixelProblem(page.width, page.height, limits, `Page ${i + 1} of the TIFF`);
    if (problem) return problem;
  }
  return undefined;
}

const STREAM = /<<((?:[^<>]|<<(?:[^<>]|<<[^<>]*>>)*>>|<[^<>]*>)*)>>\s*stream\r?\n/g;
/** A page tree node: a dictionary (with at most one level of nested dictionaries) of /Type /Pages. */
const PAGES_NODE = /<<(?:[^<>]|<<[^<>]*>>)*?\/Type\s*\/Pages\b(?:[^<>]|<<[^<>]*>>)*?>>/g;
const PAGE = /\/Type\s*\/Page(?![a-zA-Z])/g;

/**
 * The page count a PDF declares (the largest /Count of a page tree node, or the number of page
 * objects if more) and the size its Flate streams inflate to, object streams included (PDF 1.5
 * files keep their page tree there). Each stream is inflated only up to what is left of the
 * budget, so a bomb costs at most the budget.
 */
function pdfProblem(pdf: Buffer, limits: IntakeLimits): string | undefined {
  let declared = 0;
  let pageObjects = 0;
  let budget = limits.maxInflatedBytes;
  const scan = (text: string) => {
    pageObjects += text.match(PAGE)?.length ?? 0;
    for (const node of text.matchAll(PAGES_NODE)) declared = Math.max(declared, Number(/\/Count\s+(\d+)/.exec(node[0])?.[1] ?? 0));
  };
  const text = pdf.toString('latin1');
  scan(text.replace(/stream\r?\n[^]*?endstream/g, 'stream endstream'));
  for (const m of text.matchAll(STREAM)) {
    const dict = m[1]!;
    if (!/\/FlateDecode\b/.test(dict)) continue;
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    let inflated: Buffer;
    try {
      inflated = inflateSync(pdf.subarray(start, end), {
        maxOutputLength: Math.max(1, budget),
        finishFlush: 2 /* Z_SYNC_FLUSH: what a truncated stream holds */,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return `The PDF's compressed streams inflate to more than ${Math.round(limits.maxInflatedBytes / 1024 / 1024)} MB (MAX_INFLATED_MEGABYTES).`;
      }
      continue; // a broken stream: the reader decides what it means
    }
    budget -= inflated.length;
    if (/\/Type\s*\/ObjStm\b/.test(dict)) scan(inflated.toString('latin1'));
  }
  const pages = Math.max(declared, pageObjects);
  if (pages > limits.maxPdfPages)
    return `The PDF has ${pages.toLocaleString('en')} pages; at most ${limits.maxPdfPages} are read (MAX_PDF_PAGES).`;
  return undefined;
}
