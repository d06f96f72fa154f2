import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { FILE_FIELD_ALIASES, readFileField, type FileFieldRules } from '../../src/api/file-input.js';
import { detectFileType } from '../../src/files/file-type.js';
import { checkFile, MAX_FILE_BYTES, type FileRules } from '../../src/jobs/intake/file.js';
import { JobRefusal } from '../../src/jobs/intake/refusal.js';

const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const tiffLE = Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]);
const tiffBE = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]);

const rules: FileFieldRules = { fields: FILE_FIELD_ALIASES, maxBytes: MAX_FILE_BYTES };
const anyFile: FileRules = { maxBytes: MAX_FILE_BYTES, accept: ['pdf', 'png', 'jpeg', 'tiff'] };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError || err instanceof JobRefusal) return err.code;
    throw err;
  }
  return 'no error';
};

describe('file type detection by magic bytes', () => {
  it.each([
    ['pdf', pdf],
    ['png', png],
    ['jpeg', jpeg],
    ['tiff', tiffLE],
    ['tiff', tiffBE],
  ])('recognises %s', (type, bytes) => expect(detectFileType(bytes)).toEqual({ supported: true, type }));

  it('finds a PDF header after leading bytes, as PDF readers do', () => {
    expect(detectFileType(Buffer.concat([Buffer.from('garbage\r\n'), pdf]))).toEqual({ supported: true, type: 'pdf' });
  });

  it.each([
    ['HEIC/HEIF image', Buffer.from('\0\0\0\x18ftypheic\0\0\0\0', 'latin1')],
    ['WEBP image', Buffer.from('RIFF\x10\0\0\0WEBPVP8 ', 'latin1')],
    ['GIF image', Buffer.from('GIF89a\x01\0', 'latin1')],
    ['BMP image', Buffer.from('BM\x36\0\0\0', 'latin1')],
    ['ZIP archive or office document', Buffer.from([0x50, 0x4b, 0x03, 0x04, 20, 0])],
    ['SVG or XML document', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['unrecognised file', Buffer.from('hello world')],
  ])('names an unsupported %s', (label, bytes) => expect(detectFileType(bytes)).toEqual({ supported: false, label }));
});

describe('shared input rules for base64 file fields', () => {
  it('takes the aliases in SPEC order: pdfInvoiceBase64, invoiceBase64, fileBase64', () => {
    const all = { pdfInvoiceBase64: pdf.toString('base64'), invoiceBase64: png.toString('base64'), fileBase64: jpeg.toString('base64') };
    expect(readFileField(all, rules)).toMatchObject({ field: 'pdfInvoiceBase64', bytes: pdf });
    expect(readFileField({ invoiceBase64: all.invoiceBase64, fileBase64: all.fileBase64 }, rules)).toMatchObject({
      field: 'invoiceBase64',
      bytes: png,
    });
    expect(readFileField({ fileBase64: all.fileBase64 }, rules)).toMatchObject({ field: 'fileBase64', bytes: jpeg });
  });

  it('removes a data: prefix, line breaks and whitespace, and accepts base64url', () => {
    const wrapped = `data:application/pdf;base64,${pdf.toString('base64').replace(/(.{8})/g, '$1\r\n ')}`;
    expect(readFileField({ pdfInvoiceBase64: wrapped }, rules).bytes.equals(pdf)).toBe(true);
    expect(readFileField({ pdfInvoiceBase64: pdf.toString('base64url') }, rules).bytes.equals(pdf)).toBe(true);
  });

  it('rejects a missing, empty or non-string field', () => {
    expect(code(() => readFileField({}, rules))).toBe('FILE_MISSING');
    expect(code(() => readFileField({ pdfInvoiceBase64: '' }, rules))).toBe('FILE_MISSING');
    expect(code(() => readFileField({ pdfInvoiceBase64: 42 }, rules))).toBe('VALIDATION_ERROR');
  });

  it('rejects text that is not base64', () => {
    expect(code(() => readFileField({ pdfInvoiceBase64: 'not base64!' }, rules))).toBe('INVALID_BASE64');
    expect(code(() => readFileField({ pdfInvoiceBase64: 'QUJDR' }, rules))).toBe('INVALID_BASE64');
  });

  it('rejects a file over the limit from its base64 length, before decoding', () => {
    const limit = { ...rules, maxBytes: 30 };
    const err = (() => {
      try {
        readFileField({ pdfInvoiceBase64: Buffer.alloc(31, 0x25).toString('base64') }, limit);
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(err?.code).toBe('FILE_TOO_LARGE');
    expect(err?.status).toBe(413);
    expect(readFileField({ pdfInvoiceBase64: Buffer.concat([pdf.subarray(0, 30)]).toString('base64') }, limit).bytes.length).toBe(30);
  });

  it('uses the 11 MB limit of the interface (README, Errors)', () => {
    expect(MAX_FILE_BYTES).toBe(11_000_000);
    const justOver = 'A'.repeat(Math.ceil(((MAX_FILE_BYTES + 3) * 4) / 3 / 4) * 4);
    const started = performance.now();
    expect(code(() => readFileField({ pdfInvoiceBase64: justOver }, rules))).toBe('FILE_TOO_LARGE');
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('file checks of the jobs', () => {
  it('rejects unsupported types with a message naming what the file is', () => {
    const heic = Buffer.from('\0\0\0\x18ftypheic\0\0\0\0', 'latin1');
    try {
      checkFile(heic, anyFile);
      expect.fail('accepted HEIC');
    } catch (err) {
      expect((err as JobRefusal).code).toBe('UNSUPPORTED_FILE_TYPE');
      expect((err as JobRefusal).options.userMessage).toContain('HEIC');
    }
  });

  it('applies per-operation type lists, e.g. PDF and TIFF only for async analysis', () => {
    const asyncRules: FileRules = { ...anyFile, accept: ['pdf', 'tiff'] };
    expect(checkFile(tiffLE, asyncRules)).toBe('tiff');
    expect(code(() => checkFile(png, asyncRules))).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('refuses a file over the limit the way the API does before decoding', () => {
    expect(code(() => checkFile(pdf, { ...anyFile, maxBytes: 10 }))).toBe('FILE_TOO_LARGE');
  });
});
