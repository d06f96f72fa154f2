import { declaredSizeProblem, DEFAULT_INTAKE_LIMITS, type IntakeLimits } from '../../files/declared-size.js';
import { detectFileType, FILE_TYPE_LABEL, type FileType } from '../../files/file-type.js';
import type { BlobStorage } from '../../storage/blob-storage.js';
import { JobRefusal } from './refusal.js';

/** 11 MB raw for the analysis and ZUGFeRD operations ("about 14.7 MB base64"; README, Errors: FILE_TOO_LARGE). */
export const MAX_FILE_BYTES = 11_000_000;
/** 11 MiB decoded for createZugferdFromPdf (README, Analysis). */
export const MAX_CONVERT_FILE_BYTES = 11 * 1024 * 1024;

export interface FileRules {
  maxBytes: number;
  accept: readonly FileType[];
}

export const PDF_ONLY: FileRules = { maxBytes: MAX_FILE_BYTES, accept: ['pdf'] };

/** The size limit is checked first; entry points that can tell the size before reading the file refuse it the same way. */
export function fileTooLarge(size: number, maxBytes: number): JobRefusal {
  return new JobRefusal('FILE_TOO_LARGE', {
    userMessage: `The file is larger than ${formatLimit(maxBytes)}.`,
    detail: `The file has ${size} bytes; the limit is ${maxBytes}.`,
  });
}

/**
 * A file's size and, from its magic bytes, its type against what the operation accepts; then
 * what it declares (pages, pixels, inflated size) against the limits, before any parser sees it.
 */
export function checkFile(bytes: Buffer, rules: FileRules, limits: IntakeLimits = DEFAULT_INTAKE_LIMITS): FileType {
  if (bytes.length > rules.maxBytes) throw fileTooLarge(bytes.length, rules.maxBytes);
  const detected = detectFileType(bytes);
  const accepted = rules.accept.map((t) => FILE_TYPE_LABEL[t]).join(', ');
  if (!detected.supported)
    throw new JobRefusal('UNSUPPORTED_FILE_TYPE', { userMessage: `This file is a ${detected.label}; send ${accepted}.` });
  if (!rules.accept.includes(detected.type)) {
    throw new JobRefusal('UNSUPPORTED_FILE_TYPE', {
      userMessage: `${FILE_TYPE_LABEL[detected.type]} files are not accepted here; send ${accepted}.`,
    });
  }
  const problem = declaredSizeProblem(bytes, detected.type, limits);
  if (problem)
    throw new JobRefusal(detected.type === 'pdf' ? 'PDF_UNREADABLE' : 'FILE_UNREADABLE', { userMessage: problem, detail: problem });
  return detected.type;
}

/** Checks the file and stores it for the workflow. */
export async function storeFile(
  blobs: BlobStorage,
  bytes: Buffer,
  rules: FileRules,
  limits?: IntakeLimits,
): Promise<{ key: string; type: FileType }> {
  const type = checkFile(bytes, rules, limits);
  return { key: (await blobs.put(bytes)).key, type };
}

function formatLimit(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1_000_000} MB`;
}
