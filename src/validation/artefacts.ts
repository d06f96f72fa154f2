import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * Locates the rule artefacts produced by scripts/setup-validators.sh.
 *
 * They live in `.artefacts/` at the repository root. The root is found by
 * walking up from this module's own file, because the same code runs from
 * src/validation (vitest) and from dist/src/validation (compiled), and the
 * process working directory of a worker is not guaranteed.
 */

export class ArtefactsMissingError extends Error {
  constructor(detail: string) {
    super(`Validation artefacts are missing (${detail}); run scripts/setup-validators.sh`);
    this.name = 'ArtefactsMissingError';
  }
}

export function findRepoRoot(fromUrl: string = import.meta.url): string {
  let dir = path.dirname(fileURLToPath(fromUrl));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${fileURLToPath(fromUrl)}`);
    dir = parent;
  }
}

const manifestSchema = z.object({
  sources: z.array(z.object({ artifact: z.string(), version: z.string() })),
  artefacts: z.array(
    z.object({
      name: z.string(),
      version: z.string(),
      path: z.string(),
      source: z.string(),
      standard: z.string().optional(),
    }),
  ),
});

/** The Factur-X 1.0 / ZUGFeRD 2.x profiles, named like src/xml's profiles. */
export type FacturXProfile = 'MINIMUM' | 'BASICWL' | 'BASIC' | 'EN16931' | 'EXTENDED';

export type ArtefactKey =
  | 'cii-xsd'
  | 'ubl-invoice-xsd'
  | 'ubl-creditnote-xsd'
  | 'en16931-cii'
  | 'en16931-ubl'
  | 'xrechnung-cii'
  | 'xrechnung-ubl'
  | `factur-x-${Lowercase<FacturXProfile>}-xsd`
  | `factur-x-${Lowercase<FacturXProfile>}`;

export interface Artefact {
  name: string;
  version: string;
  /** Absolute path of the file to load. */
  file: string;
}

// Maps our stable keys to the manifest's relative paths, so code never
// depends on the human-readable names in the manifest.
const KEY_PATHS: Record<ArtefactKey, string> = {
  'cii-xsd': 'xsd/cii-d16b/data/standard/CrossIndustryInvoice_100pD16B.xsd',
  'ubl-invoice-xsd': 'xsd/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd',
  'ubl-creditnote-xsd': 'xsd/ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd',
  'en16931-cii': 'sef/en16931-cii.sef.json',
  'en16931-ubl': 'sef/en16931-ubl.sef.json',
  'xrechnung-cii': 'sef/xrechnung-cii.sef.json',
  'xrechnung-ubl': 'sef/xrechnung-ubl.sef.json',
  'factur-x-minimum-xsd': 'xsd/factur-x/minimum/FACTUR-X_MINIMUM.xsd',
  'factur-x-minimum': 'sef/factur-x-minimum.sef.json',
  'factur-x-basicwl-xsd': 'xsd/factur-x/basic-wl/FACTUR-X_BASICWL.xsd',
  'factur-x-basicwl': 'sef/factur-x-basic-wl.sef.json',
  'factur-x-basic-xsd': 'xsd/factur-x/basic/FACTUR-X_BASIC.xsd',
  'factur-x-basic': 'sef/factur-x-basic.sef.json',
  'factur-x-en16931-xsd': 'xsd/factur-x/en16931/FACTUR-X_EN16931.xsd',
  'factur-x-en16931': 'sef/factur-x-en16931.sef.json',
  'factur-x-extended-xsd': 'xsd/factur-x/extended/FACTUR-X_EXTENDED.xsd',
  'factur-x-extended': 'sef/factur-x-extended.sef.json',
};

/** The schematrons, each compiled to SEF for SaxonJS and kept as XSLT for Saxon-HE. */
export const RULE_SET_KEYS = (Object.keys(KEY_PATHS) as ArtefactKey[]).filter((k) => KEY_PATHS[k].startsWith('sef/'));

export interface ArtefactCatalog {
  dir: string;
  get(key: ArtefactKey): Artefact;
  /** The XSLT a rule set's SEF was compiled from. */
  xslt(key: ArtefactKey): string;
}

let catalog: ArtefactCatalog | undefined;

export function artefacts(): ArtefactCatalog {
  if (catalog) return catalog;
  const dir = path.join(findRepoRoot(), '.artefacts');
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new ArtefactsMissingError(`${manifestFile} not found`);
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestFile, 'utf8')));
  const byPath = new Map(manifest.artefacts.map((a) => [a.path, a]));
  const resolved = new Map<ArtefactKey, Artefact>();
  for (const [key, rel] of Object.entries(KEY_PATHS) as Array<[ArtefactKey, string]>) {
    const entry = byPath.get(rel);
    const file = path.join(dir, rel);
    if (!entry || !existsSync(file)) throw new ArtefactsMissingError(`${rel} not found`);
    resolved.set(key, { name: entry.name, version: entry.version, file });
  }
  catalog = {
    dir,
    get(key) {
      // Every key was resolved above, so a miss is a programming error.
      const a = resolved.get(key);
      if (!a) throw new Error(`unknown artefact ${key}`);
      return a;
    },
    xslt(key) {
      const file = path.join(dir, KEY_PATHS[key].replace(/^sef\//, 'xslt/').replace(/\.sef\.json$/, '.xslt'));
      if (!existsSync(file)) throw new ArtefactsMissingError(`${path.relative(dir, file)} not found`);
      return file;
    },
  };
  return catalog;
}
