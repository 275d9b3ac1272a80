import { graphErrors } from './errors.js';

/** One requested field: `name` or `name{sub,fields}` (Graph field expansion). */
export interface FieldSpec {
  name: string;
  sub?: FieldSpec[];
}

/** Parses `id,name,picture{url},instagram_business_account{id,username}`. */
export function parseFields(value: string | undefined, defaults: string): FieldSpec[] {
  const text = value?.trim() ? value : defaults;
  const specs: FieldSpec[] = [];
  let i = 0;
  const parseList = (): FieldSpec[] => {
    const list: FieldSpec[] = [];
    while (i < text.length && text[i] !== '}') {
      let name = '';
      while (i < text.length && !',{}'.includes(text[i]!)) name += text[i++];
      // Modifiers (`comments.limit(10)`, `.order(…)`) are accepted and ignored.
      const spec: FieldSpec = { name: name.trim().split('.')[0]! };
      if (text[i] === '{') {
        i++;
        spec.sub = parseList();
        i++; // the closing brace
      }
      if (spec.name) list.push(spec);
      if (text[i] === ',') i++;
    }
    return list;
  };
  specs.push(...parseList());
  return specs;
}

type Node = Record<string, unknown>;

/** Edges whose items Graph gives whole when no sub-fields are asked for (`participants`). */
const wholeEdges = new WeakSet<object>();

/** Marks an edge as one Graph answers with its items' own fields by default, not only ids. */
export function wholeByDefault<T extends { data: unknown[] }>(edge: T): T {
  wholeEdges.add(edge);
  return edge;
}
const isObject = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Answers with only the fields asked for, like Graph: `id` always; a reference without
 * sub-fields gives `{id}`; `{data: …}` wrappers (picture) apply the sub-fields inside.
 * An unknown field is error 100, so a typo in an adapter fails its test.
 */
export function pickFields(node: Node, specs: FieldSpec[], nodeType: string): Node {
  const out: Node = {};
  for (const spec of specs) {
    if (!(spec.name in node)) throw graphErrors.unknownField(spec.name, nodeType);
    const value = node[spec.name];
    if (value === undefined) continue;
    if (!isObject(value)) out[spec.name] = value;
    else if (Array.isArray(value.data)) {
      // An edge (`replies`, `comments`, `children`): the sub-fields apply to every item.
      const items = value.data as Node[];
      out[spec.name] = {
        ...value,
        data: items.map((item) =>
          spec.sub
            ? pickFields(item, spec.sub, spec.name)
            : wholeEdges.has(value)
              ? item
              : { id: item.id },
        ),
      };
    } else if (isObject(value.data)) {
      out[spec.name] = {
        data: spec.sub ? pickFields(value.data, spec.sub, spec.name) : value.data,
      };
    } else if (spec.sub) out[spec.name] = pickFields(value, spec.sub, spec.name);
    else out[spec.name] = 'id' in value ? { id: value.id } : value;
  }
  if ('id' in node && !('id' in out)) out.id = node.id;
  return out;
}
