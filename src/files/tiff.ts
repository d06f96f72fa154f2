import { constants, inflateRawSync } from 'node:zlib';
import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import UTIF, { type IFD } from 'utif2';
import { imageDimensions } from './image-header.js';

/**
 * TIFF pages to RGBA pixels, for OCR (src/reading) and for images → PDF pages (src/pdf). Scanners and
 * fax software write uncompressed, LZW, PackBits, Deflate, CCITT G3/G4 (bilevel) and JPEG, in
 * grey, RGB, YCbCr, palette and 1-bit; multi-page files and reduced-resolution copies.
 *
 * utif2 parses the directories and decodes everything except new-style JPEG (compression 7): its
 * JPEG decoder always writes three samples per pixel, which garbles the greyscale JPEG that office
 * scanners write. Those strips and tiles are completed with the file's JPEGTables and decoded by
 * @napi-rs/canvas (libjpeg-turbo), which handles grey, RGB, YCbCr and CMYK. Old-style JPEG
 * (compression 6) is left to utif2.
 *
 * The file is untrusted: a page's pixel count is checked before anything is decoded, a JPEG strip
 * may not claim more pixels than its place on the page, a Deflate strip may not inflate beyond
 * its size, and compressions nobody decodes here are refused by name instead of read as blank.
 */

/** The TIFF cannot be read; the message says why in words a user can act on. */
export class TiffError extends Error {
  override readonly name = 'TiffError';
}

export interface TiffPage {
  width: number;
  height: number;
  /** Resolution the file records, when it is plausible for a scan (fax pages are 204×98 dpi). */
  dpi?: { x: number; y: number };
}

export interface DecodedPage {
  width: number;
  height: number;
  /** width × height × 4 bytes, opaque. */
  rgba: Uint8Array;
}

export interface TiffFile {
  /** The full-resolution pages, in file order (reduced-resolution copies left out). */
  pages: TiffPage[];
  /** 0-based. */
  decode(index: number): Promise<DecodedPage>;
}

/** Baseline and extension TIFF tags used here. */
const TAG = {
  subfileType: 't254',
  width: 't256',
  height: 't257',
  bitsPerSample: 't258',
  compression: 't259',
  stripOffsets: 't273',
  samplesPerPixel: 't277',
  rowsPerStrip: 't278',
  stripByteCounts: 't279',
  xResolution: 't282',
  yResolution: 't283',
  planarConfiguration: 't284',
  resolutionUnit: 't296',
  tileWidth: 't322',
  tileLength: 't323',
  tileOffsets: 't324',
  tileByteCounts: 't325',
  jpegTables: 't347',
} as const;

/** NewSubfileType bit 0: a reduced-resolution copy (thumbnail) of another page. */
const REDUCED_RESOLUTION = 1;
const CM_PER_INCH = 2.54;

const COMPRESSION = { none: 1, oldJpeg: 6, jpeg: 7, deflate: 8, deflateOld: 32946 } as const;
/** What utif2 decodes, besides JPEG: none, CCITT RLE, G3, G4, LZW, old-style JPEG, Deflate, PackBits, Thunderscan. */
const UTIF_COMPRESSIONS = new Set([1, 2, 3, 4, 5, 6, 8, 32773, 32809, 32946]);
/** Compressions met in the wild that nothing here decodes, by name for the error message. */
const UNSUPPORTED_NAMES: Readonly<Record<number, string>> = {
  9: 'JBIG',
  10: 'JBIG2',
  34712: 'JPEG 2000',
  34925: 'LZMA',
  50000: 'Zstandard',
  50001: 'WebP',
};

export function openTiff(input: Uint8Array, limits: { maxPixels: number }): TiffFile {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  checkDirectories(bytes);
  let ifds: IFD[];
  try {
    // Maker notes are camera data nobody reads here, and a second parser's worth of untrusted input.
    ifds = (UTIF.decode as (data: Buffer, options: { parseMN: boolean; debug: boolean }) => IFD[])(bytes, { parseMN: false, debug: false });
  } catch (err) {
    throw new TiffError(`The TIFF structure is broken: ${messageOf(err)}`);
  }
  const images = ifds.filter(
    (ifd) => first(ifd[TAG.width]) !== undefined && ((first(ifd[TAG.subfileType]) ?? 0) & REDUCED_RESOLUTION) === 0,
  );
  if (images.length === 0) throw new TiffError('The TIFF file contains no image.');
  return {
    pages: images.map((ifd) => {
      const dpi = resolution(ifd);
      return { width: first(ifd[TAG.width])!, height: first(ifd[TAG.height]) ?? 0, ...(dpi ? { dpi } : {}) };
    }),
    decode: (index) => decodePage(bytes, images[index]!, limits.maxPixels),
  };
}

/** Bytes per value of each TIFF field type (1 BYTE … 13 IFD). */
const TYPE_SIZE: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };
/** Tags whose values point at further directories, which utif2 follows. */
const DIRECTORY_TAGS = new Set([330, 34665, 34853, 50740, 61440]);
/** More directories than any scan has (pages, thumbnails, EXIF); a longer chain is a loop or a bomb. */
const MAX_DIRECTORIES = 4096;

/**
 * utif2 trusts the directory structure: a field that claims four billion values is read value by
 * value into an array (gigabytes, then a crash), and a chain of directories that points back at
 * itself is followed for ever. Every directory is walked here first, without reading a value
 * array: each one and every field's values must lie inside the file, and no directory comes twice.
 */
function checkDirectories(bytes: Buffer): void {
  const broken = (why: string) => new TiffError(`The TIFF structure is broken: ${why}.`);
  if (bytes.length < 8) throw broken('the file is shorter than a TIFF header');
  const order = bytes.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') throw broken('no byte order mark');
  const u16 = (at: number) => (order === 'II' ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number) => (order === 'II' ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const seen = new Set<number>();
  const pending = [u32(4)];
  while (pending.length > 0) {
    const at = pending.pop()!;
    if (at === 0) continue;
    if (seen.has(at)) throw broken(`the directory at byte ${at} is reached twice`);
    if (seen.size >= MAX_DIRECTORIES) throw broken(`more than ${MAX_DIRECTORIES} directories`);
    seen.add(at);
    if (at + 2 > bytes.length) throw broken(`a directory at byte ${at} lies beyond the end of the file`);
    const count = u16(at);
    const end = at + 2 + count * 12;
    if (end + 4 > bytes.length) throw broken(`the directory at byte ${at} has ${count} fields, more than the file holds`);
    for (let entry = at + 2; entry < end; entry += 12) {
      const tag = u16(entry);
      const size = TYPE_SIZE[u16(entry + 2)];
      if (size === undefined) continue; // utif2 skips types it does not know, without reading
      const values = u32(entry + 4);
      const length = values * size;
      if (length > 4 && u32(entry + 8) + length > bytes.length)
        throw broken(`field ${tag} claims ${values} values, more than the file holds`);
      if (!DIRECTORY_TAGS.has(tag)) continue;
      const base = length > 4 ? u32(entry + 8) : entry + 8;
      // As utif2 reads them: each value an offset, except DNGPrivateData, whose first four bytes are one.
      const read = (i: number) => (size === 1 ? bytes[base + i]! : size === 2 ? u16(base + 2 * i) : u32(base + 4 * i));
      if (tag === 50740) pending.push(length >= 4 ? u32(base) : 0);
      else if (size <= 4) for (let i = 0; i < values; i++) pending.push(read(i));
    }
    pending.push(u32(end));
  }
}

async function decodePage(bytes: Buffer, ifd: IFD, maxPixels: number): Promise<DecodedPage> {
  const width = first(ifd[TAG.width])!;
  const height = first(ifd[TAG.height]) ?? 0;
  if (!(width > 0 && height > 0)) throw new TiffError(`A TIFF page claims a size of ${width}×${height} pixels.`);
  if (width * height > maxPixels)
    throw new TiffError(`A TIFF page has ${width}×${height} pixels; at most ${maxPixels / 1e6} million are read.`);
  const compression = first(ifd[TAG.compression]) ?? COMPRESSION.none;
  if (compression !== COMPRESSION.jpeg && !UTIF_COMPRESSIONS.has(compression)) {
    throw new TiffError(
      `The TIFF compression ${UNSUPPORTED_NAMES[compression] ?? `no. ${compression}`} is not supported; send the scan as PDF, PNG, JPEG or a TIFF with LZW, Deflate, PackBits, CCITT G3/G4 or JPEG compression.`,
    );
  }
  const bits = numbers(ifd[TAG.bitsPerSample]);
  if (bits.some((b) => b > 16) || (first(ifd[TAG.samplesPerPixel]) ?? 1) > 5)
    throw new TiffError('A TIFF page has more than 16 bits per sample or more than 5 samples per pixel; scans have neither.');
  if ((first(ifd[TAG.planarConfiguration]) ?? 1) !== 1)
    throw new TiffError(
      'A TIFF page stores its colour planes separately (PlanarConfiguration 2); scanners do not write that and it is not read here.',
    );
  const rgba =
    compression === COMPRESSION.jpeg ? await decodeJpeg(bytes, ifd, width, height) : decodeWithUtif(bytes, ifd, width, height, compression);
  return { width, height, rgba };
}

function decodeWithUtif(bytes: Buffer, ifd: IFD, width: number, height: number, compression: number): Uint8Array {
  if (compression === COMPRESSION.deflate || compression === COMPRESSION.deflateOld) checkInflatedSizes(bytes, ifd, width, height);
  let rgba: Uint8Array;
  try {
    // utif2 prints a line to stdout for every tiled image; stdout is the service's log stream.
    rgba = quietly(() => {
      UTIF.decodeImage(bytes, ifd);
      return UTIF.toRGBA8(ifd);
    });
  } catch (err) {
    throw new TiffError(`A TIFF page cannot be decoded: ${messageOf(err)}`);
  }
  if (rgba.length < width * height * 4) throw new TiffError('A TIFF page has less pixel data than its size claims.');
  return rgba.length === width * height * 4 ? rgba : rgba.subarray(0, width * height * 4);
}

/** Strips or tiles: where each chunk of the page is and how large its place is. */
function chunks(
  ifd: IFD,
  width: number,
  height: number,
): { offsets: number[]; counts: number[]; chunkWidth: number; chunkHeight: number; across: number; needed: number } {
  const tiled = ifd[TAG.tileWidth] !== undefined;
  const offsets = numbers(ifd[tiled ? TAG.tileOffsets : TAG.stripOffsets]);
  const counts = numbers(ifd[tiled ? TAG.tileByteCounts : TAG.stripByteCounts]);
  const chunkWidth = tiled ? (first(ifd[TAG.tileWidth]) ?? 0) : width;
  const chunkHeight = tiled ? (first(ifd[TAG.tileLength]) ?? 0) : Math.min(first(ifd[TAG.rowsPerStrip]) ?? height, height);
  if (!(chunkWidth > 0 && chunkHeight > 0)) throw new TiffError('A TIFF page has strips or tiles without a size.');
  const across = Math.ceil(width / chunkWidth);
  return { offsets, counts, chunkWidth, chunkHeight, across, needed: across * Math.ceil(height / chunkHeight) };
}

/**
 * utif2 inflates Deflate strips without an output limit; a strip that inflates beyond the bytes
 * its place on the page holds is a decompression bomb and refused before utif2 sees it.
 */
function checkInflatedSizes(bytes: Buffer, ifd: IFD, width: number, height: number): void {
  const { offsets, counts, chunkWidth, chunkHeight } = chunks(ifd, width, height);
  const bitsPerPixel = (first(ifd[TAG.bitsPerSample]) ?? 1) * (first(ifd[TAG.samplesPerPixel]) ?? 1);
  const limit = Math.ceil((chunkWidth * bitsPerPixel) / 8) * chunkHeight;
  offsets.forEach((offset, i) => {
    const chunk = bytes.subarray(offset, offset + (counts[i] ?? 0));
    if (chunk.length <= 6) return;
    try {
      // As utif2 reads it: the zlib header and checksum left out.
      inflateRawSync(chunk.subarray(2, chunk.length - 4), { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH });
    } catch (err) {
      if (err instanceof RangeError) throw new TiffError(`A TIFF strip inflates to more than the ${limit} bytes its size allows.`);
      // Anything else is for utif2 to report.
    }
  });
}

/** New-style JPEG: every strip or tile a JPEG stream (abbreviated: the tables are in JPEGTables), drawn at its place. */
async function decodeJpeg(bytes: Buffer, ifd: IFD, width: number, height: number): Promise<Uint8Array> {
  const { offsets, counts, chunkWidth, chunkHeight, across, needed } = chunks(ifd, width, height);
  if (offsets.length < needed || counts.length < needed)
    throw new TiffError('A JPEG-compressed TIFF page has fewer strips or tiles than its size needs.');
  const tables = jpegTables(ifd[TAG.jpegTables]);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  for (let i = 0; i < needed; i++) {
    const chunk = bytes.subarray(offsets[i]!, offsets[i]! + counts[i]!);
    const stream = tables ? Buffer.concat([tables, chunk[0] === 0xff && chunk[1] === 0xd8 ? chunk.subarray(2) : chunk]) : chunk;
    const size = imageDimensions(stream, 'jpeg');
    if (!size) throw new TiffError('A JPEG strip of the TIFF page has no readable header.');
    if (size.width > chunkWidth || size.height > chunkHeight)
      throw new TiffError(
        `A JPEG strip of the TIFF page claims ${size.width}×${size.height} pixels, more than its place of ${chunkWidth}×${chunkHeight}.`,
      );
    let image: Image;
    try {
      image = await loadImage(stream);
    } catch (err) {
      throw new TiffError(`A JPEG strip of the TIFF page cannot be decoded: ${messageOf(err)}`);
    }
    ctx.drawImage(image, (i % across) * chunkWidth, Math.floor(i / across) * chunkHeight);
  }
  const { data } = ctx.getImageData(0, 0, width, height);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** JPEGTables is a JPEG stream of tables only (SOI, DQT/DHT, EOI); the EOI goes, the strip's SOI goes. */
function jpegTables(tag: unknown): Buffer | undefined {
  const values = numbers(tag);
  if (values.length < 4) return undefined;
  const tables = Buffer.from(values);
  return tables[tables.length - 2] === 0xff && tables[tables.length - 1] === 0xd9 ? tables.subarray(0, tables.length - 2) : tables;
}

function resolution(ifd: IFD): { x: number; y: number } | undefined {
  const unit = first(ifd[TAG.resolutionUnit]) ?? 2;
  const perInch = unit === 3 ? CM_PER_INCH : unit === 2 ? 1 : undefined; // 1 = no absolute unit
  const x = rational(ifd[TAG.xResolution]);
  const y = rational(ifd[TAG.yResolution]) ?? x;
  if (perInch === undefined || x === undefined || y === undefined) return undefined;
  const plausible = (dpi: number) => dpi >= 50 && dpi <= 2400;
  return plausible(x * perInch) && plausible(y * perInch) ? { x: x * perInch, y: y * perInch } : undefined;
}

function quietly<T>(body: () => T): T {
  const log = console.log;
  console.log = () => undefined;
  try {
    return body();
  } finally {
    console.log = log;
  }
}

function first(tag: unknown): number | undefined {
  const value = Array.isArray(tag) ? tag[0] : undefined;
  return typeof value === 'number' ? value : undefined;
}

function numbers(tag: unknown): number[] {
  return Array.isArray(tag) || ArrayBuffer.isView(tag)
    ? Array.from(tag as ArrayLike<unknown>).filter((v): v is number => typeof v === 'number')
    : [];
}

function rational(tag: unknown): number | undefined {
  const value = Array.isArray(tag) ? tag[0] : undefined;
  if (!Array.isArray(value) || typeof value[0] !== 'number' || typeof value[1] !== 'number' || value[1] === 0) return undefined;
  return value[0] / value[1];
}

/** utif2 throws strings and numbers as well as Errors. */
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
