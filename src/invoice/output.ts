import { catalog } from './catalog.js';
import type { Invoice } from './model.js';

/**
 * The invoice of an analysis as the analysis endpoints answer it, and as a connector route
 * writes it (createJSONFromAnalysedPdf). Inside the service dates are ISO strings and amounts decimal strings (model.ts); the API
 * answers dates as DD.MM.YYYY and amounts and rates as JSON numbers (README, Analysis). V2 lists only
 * the fields found, V1 every field of the invoice object.
 */

export type OutputValue = string | number | null | OutputValue[] | { [key: string]: OutputValue };
export type OutputObject = { [key: string]: OutputValue };

/** Leaf kinds by generic path (`invoiceLine[].invoicedQuantity`). */
const KIND = new Map(catalog.map((f) => [f.path, f.kind]));
/** Leaves that are lists of strings (sellerIdentifier). */
const LISTS = new Set(catalog.filter((f) => f.list).map((f) => f.path));

/** Child keys of every object level, by generic path ('' is the invoice itself), in model order. */
const CHILDREN = (() => {
  const children = new Map<string, string[]>();
  for (const { path } of catalog) {
    const parts = path.split('.');
    parts.forEach((part, i) => {
      const parent = parts.slice(0, i).join('.');
      const list = children.get(parent) ?? [];
      if (!list.includes(part)) list.push(part);
      children.set(parent, list);
    });
  }
  return children;
})();

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

/** V2: the fields found, nothing else. */
export function toV2Invoice(invoice: Invoice): OutputObject {
  return convert(invoice as Record<string, unknown>, '') as OutputObject;
}

/** V1: every field of the invoice object; absent values are null, absent lists empty. */
export function toV1Invoice(invoice: Invoice): OutputObject {
  return complete(toV2Invoice(invoice), '');
}

function convert(value: unknown, path: string): OutputValue {
  // String lists are leaves; the fields of object lists sit under `[]`.
  if (Array.isArray(value)) return value.map((v) => convert(v, LISTS.has(path) ? path : `${path}[]`));
  if (value !== null && typeof value === 'object') {
    const out: OutputObject = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = convert(v, join(path, key));
    return out;
  }
  return leaf(value as string, KIND.get(path));
}

function leaf(value: string, kind: string | undefined): OutputValue {
  if (kind === 'decimal') return Number(value);
  if (kind === 'date') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    return m ? `${m[3]}.${m[2]}.${m[1]}` : value;
  }
  return value;
}

function complete(found: OutputObject, path: string): OutputObject {
  const out: OutputObject = {};
  for (const key of CHILDREN.get(path) ?? []) {
    const name = key.replace(/\[\]$/, '');
    const child = join(path, key);
    const value = found[name];
    if (key.endsWith('[]')) out[name] = ((value as OutputObject[] | undefined) ?? []).map((item) => complete(item, child));
    else if (CHILDREN.has(child)) out[name] = complete((value as OutputObject | undefined) ?? {}, child);
    else out[name] = value ?? (LISTS.has(child) ? [] : null);
  }
  return out;
}
