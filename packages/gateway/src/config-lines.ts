import { type Document, isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';

/**
 * The 1-based line of the YAML node at `path` in `document`; for a path that is not there (a missing
 * field), the line of the deepest node that is. `key` names a field of that node whose key line is
 * wanted instead (an unknown field).
 */
export function lineOf(
  document: Document,
  lines: LineCounter,
  path: readonly PropertyKey[],
  key?: string,
): number | undefined {
  let node: unknown = document.contents;
  let offset = rangeStart(node);
  for (const part of path) {
    const next = childOf(node, part);
    if (next === undefined) break;
    node = next.value;
    offset = next.keyOffset ?? rangeStart(node) ?? offset;
  }
  if (key !== undefined) {
    const field = childOf(node, key);
    if (field?.keyOffset !== undefined) offset = field.keyOffset;
  }
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

function childOf(node: unknown, part: PropertyKey): { value: unknown; keyOffset?: number } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(part));
    if (!pair) return undefined;
    const keyOffset = rangeStart(pair.key);
    return keyOffset === undefined ? { value: pair.value } : { value: pair.value, keyOffset };
  }
  if (isSeq(node) && typeof part === 'number') {
    const item = node.items[part];
    return item === undefined ? undefined : { value: item };
  }
  return undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : undefined;
}
