import { z } from 'zod';
import { invoiceSchema, type FieldKind, type FieldMeta } from './model.js';

/**
 * The model walked once into a flat catalogue: every leaf field with its JSON path
 * and business term. Error messages, the V1 "every field present" output and the
 * analysis benchmark all read this instead of re-describing the model.
 */
export interface CatalogField {
  /** Dotted path; array levels are marked with `[]`, e.g. `invoiceLine[].priceDetails.itemNetPrice`. */
  path: string;
  bt: string;
  kind: FieldKind;
  /** True for `string[]` leaves such as sellerIdentifier. */
  list: boolean;
}

type AnySchema = z.ZodType;

function metaOf(schema: AnySchema): FieldMeta | undefined {
  return schema.meta() as FieldMeta | undefined;
}

function unwrap(schema: AnySchema): AnySchema {
  return schema instanceof z.ZodOptional ? unwrap(schema.unwrap() as AnySchema) : schema;
}

/** A list of groups, such as `invoiceLine[]`, and the business group (or term) of one item. */
export interface CatalogList {
  path: string;
  bt: string;
  /** At most one item (a line's VAT information): its items need no number. */
  single: boolean;
}

function walk(schema: AnySchema, path: string, out: CatalogField[], lists: CatalogList[]): void {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    for (const [key, child] of Object.entries(inner.shape)) walk(child as AnySchema, path ? `${path}.${key}` : key, out, lists);
    return;
  }
  if (inner instanceof z.ZodArray) {
    const element = inner.element as AnySchema;
    if (unwrap(element) instanceof z.ZodObject) {
      const single = z.toJSONSchema(inner, { io: 'input', unrepresentable: 'any' }).maxItems === 1;
      lists.push({ path: `${path}[]`, bt: metaOf(unwrap(element))?.bt ?? metaOf(inner)?.bt ?? '', single });
      return walk(element, `${path}[]`, out, lists);
    }
    const meta = metaOf(element) ?? metaOf(inner);
    out.push({ path, bt: meta?.bt ?? '', kind: meta?.kind ?? 'string', list: true });
    return;
  }
  const meta = metaOf(inner);
  out.push({ path, bt: meta?.bt ?? '', kind: meta?.kind ?? 'string', list: false });
}

const walked = (() => {
  const fields: CatalogField[] = [];
  const lists: CatalogList[] = [];
  walk(invoiceSchema, '', fields, lists);
  return { fields, lists };
})();

export const catalog: readonly CatalogField[] = walked.fields;
/** Every list of groups in the model: the page numbers its items by the group's name. */
export const catalogLists: readonly CatalogList[] = walked.lists;

const byPath = new Map(catalog.map((f) => [f.path, f]));

/** Business term of a concrete path such as ['invoiceLine', 3, 'invoicedQuantity'], for error messages. */
export function btOf(path: ReadonlyArray<PropertyKey>): string | undefined {
  const generic = path
    .map((p) => (typeof p === 'number' ? '[]' : String(p)))
    .join('.')
    .replace(/\.\[\]/g, '[]');
  return byPath.get(generic)?.bt ?? groupBt(path);
}

function groupBt(path: ReadonlyArray<PropertyKey>): string | undefined {
  let schema: AnySchema | undefined = invoiceSchema;
  let bt: string | undefined = metaOf(invoiceSchema)?.bt;
  for (const p of path) {
    const inner: AnySchema | undefined = schema ? unwrap(schema) : undefined;
    if (inner instanceof z.ZodObject) schema = inner.shape[String(p)] as AnySchema | undefined;
    else if (inner instanceof z.ZodArray) schema = inner.element as AnySchema;
    else return bt;
    if (!schema) return bt;
    bt = metaOf(unwrap(schema))?.bt ?? metaOf(schema)?.bt ?? bt;
  }
  return bt;
}
