import { closeSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParseOption, XmlDocument, XmlValidateError, XsdValidator, xmlRegisterInputProvider } from 'libxml2-wasm';
import { artefacts, type ArtefactKey } from './artefacts.js';
import type { RootKind } from './detect.js';
import { detailLocation } from './parse.js';
import type { Finding, FindingSource } from './types.js';

/**
 * XML Schema validation with libxml2 (WASM).
 *
 * libxml2 reads files only through registered input providers. Ours answers
 * solely for files below .artefacts/xsd — the schema modules that the main
 * XSDs import — so schema loading works while nothing else on disk is
 * reachable through libxml2 from this module. Instance documents are parsed
 * from strings without a URL, so they have nothing to resolve in the first
 * place.
 */

const SCHEMA_FOR: Record<RootKind, ArtefactKey> = {
  cii: 'cii-xsd',
  'ubl-invoice': 'ubl-invoice-xsd',
  'ubl-creditnote': 'ubl-creditnote-xsd',
};

function schemaKey(kind: RootKind | ArtefactKey): ArtefactKey {
  return Object.hasOwn(SCHEMA_FOR, kind) ? SCHEMA_FOR[kind as RootKind] : (kind as ArtefactKey);
}

let providerRegistered = false;

function toPath(filename: string): string {
  return path.resolve(filename.startsWith('file:') ? fileURLToPath(filename) : filename);
}

function registerSchemaProvider(xsdRoot: string): void {
  if (providerRegistered) return;
  providerRegistered = true;
  const inside = (filename: string) => {
    const p = toPath(filename);
    return p.startsWith(xsdRoot + path.sep);
  };
  xmlRegisterInputProvider({
    match: inside,
    open: (filename) => {
      // realpath so that a symlink inside the folder cannot point elsewhere.
      try {
        const real = realpathSync(toPath(filename));
        return real.startsWith(xsdRoot + path.sep) ? openSync(real, 'r') : undefined;
      } catch {
        return undefined;
      }
    },
    read: (fd, buf) => {
      try {
        return readSync(fd, buf, 0, buf.byteLength, null);
      } catch {
        return -1;
      }
    },
    close: (fd) => {
      try {
        closeSync(fd);
        return true;
      } catch {
        return false;
      }
    },
  });
}

const validators = new Map<ArtefactKey, XsdValidator>();

function validatorFor(key: ArtefactKey): XsdValidator {
  const cached = validators.get(key);
  if (cached) return cached;
  const catalog = artefacts();
  const xsdRoot = realpathSync(path.join(catalog.dir, 'xsd'));
  registerSchemaProvider(xsdRoot);
  const file = realpathSync(catalog.get(key).file);
  // The url makes relative schemaLocation imports resolve next to the entry
  // schema, where the provider serves them.
  const doc = XmlDocument.fromBuffer(readFileSync(file), { url: file, option: ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE });
  try {
    const validator = XsdValidator.fromDoc(doc);
    validators.set(key, validator);
    return validator;
  } finally {
    doc.dispose();
  }
}

export function schemaArtefact(kind: RootKind | ArtefactKey): { name: string; version: string } {
  const a = artefacts().get(schemaKey(kind));
  return { name: a.name, version: a.version };
}

/** Loads the schema for a root kind (or a schema artefact) ahead of the first document. */
export function preloadSchema(kind: RootKind | ArtefactKey): void {
  validatorFor(schemaKey(kind));
}

export function validateAgainstSchema(doc: XmlDocument, kind: RootKind): Finding[] {
  return validateWithSchema(doc, SCHEMA_FOR[kind], 'xsd', 'XSD');
}

/** XML Schema validation against any schema artefact, e.g. a Factur-X profile's XSD. */
export function validateWithSchema(doc: XmlDocument, key: ArtefactKey, source: FindingSource, ruleId: string): Finding[] {
  const validator = validatorFor(key);
  try {
    validator.validate(doc);
    return [];
  } catch (e) {
    if (!(e instanceof XmlValidateError)) throw e;
    const details = e.details.length > 0 ? e.details : [{ message: e.message, level: 2, line: 0, col: 0 }];
    return details.map((d) => {
      const location = detailLocation(d);
      return {
        ruleId,
        severity: d.level === 1 ? ('warning' as const) : ('error' as const),
        message: d.message.trim(),
        ...(location ? { location } : {}),
        source,
      };
    });
  }
}
