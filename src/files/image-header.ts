/**
 * Pixel dimensions read from a PNG or JPEG header, before anything is decoded,
 * so that a small file claiming a gigapixel image is refused without
 * allocating it. Undefined when the header is broken.
 */
export function imageDimensions(bytes: Uint8Array, type: 'png' | 'jpeg'): { width: number; height: number } | undefined {
  return type === 'png' ? pngDimensions(bytes) : jpegDimensions(bytes);
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** IHDR is the first chunk of every PNG: width and height follow its type at byte 16. */
function pngDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 24 || Buffer.from(bytes.subarray(12, 16)).toString('latin1') !== 'IHDR') return undefined;
  const v = view(bytes);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

/** Start-of-frame markers SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const v = view(bytes);
  let at = 2; // after SOI
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    if (isStartOfFrame(marker)) return { height: v.getUint16(at + 5), width: v.getUint16(at + 7) };
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image or scan data before any frame header
    at += 2 + v.getUint16(at + 2);
  }
  return undefined;
}
