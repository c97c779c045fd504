import { isLosslessNumber } from 'lossless-json';

/**
 * The `malformed` fault: the answer the upstream would give, with one field broken so that a
 * client validating at the boundary must name it. The first amount or quantity of the data (a
 * JSON number, or a decimal string) becomes an object (`{"malformed": true}`, which no
 * string, number or nullable field accepts); with none, the first text field does; with none,
 * the first list becomes a string. Envelope and paging fields are left alone so the break is
 * in the data itself.
 */

const LEFT_ALONE = new Set([
  'status',
  'reason',
  'rejectCode',
  'pageNumber',
  'pageSize',
  'totalRecords',
  'hasNextPage',
  'page',
  'per_page',
  'total',
  'next_page',
  'page_meta',
  'customerNumber',
  'month',
  'year',
]);

type Path = (string | number)[];

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

function find(value: unknown, wanted: (leaf: unknown) => boolean, path: Path = []): Path | null {
  if (wanted(value) && path.length > 0) return path;
  if (isLosslessNumber(value) || value === null || typeof value !== 'object') return null;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (typeof key === 'string' && LEFT_ALONE.has(key)) continue;
    const found = find(child, wanted, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/** A copy of `value` with the node at `path` replaced; only the nodes along the path are copied. */
function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[key as number] = replaceAt(value[key as number], rest, replacement);
    return copy;
  }
  const record = value as Record<string, unknown>;
  return { ...record, [key as string]: replaceAt(record[key as string], rest, replacement) };
}

export function malform(body: unknown): unknown {
  const isNumber = (v: unknown) =>
    isLosslessNumber(v) || typeof v === 'number' || (typeof v === 'string' && DECIMAL_TEXT.test(v));
  const leaf = find(body, isNumber) ?? find(body, (v) => typeof v === 'string');
  if (leaf !== null) return replaceAt(body, leaf, { malformed: true });
  const list = find(body, (v) => Array.isArray(v));
  if (list !== null) return replaceAt(body, list, 'not-a-list');
  return 'malformed';
}
