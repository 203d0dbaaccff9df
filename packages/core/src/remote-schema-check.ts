import { messageOf, ToolgateError } from './errors.js';
import { linearPattern } from './linear-pattern.js';

/** The limits a JSON Schema from elsewhere (an MCP server) must keep to before toolgate reads it. */
export const remoteSchemaLimits = {
  /** How deeply objects and arrays may nest. */
  maxDepth: 64,
  /** How many JSON values (objects, arrays, strings, numbers …) it may hold in all, enum values included. */
  maxValues: 20_000,
  /** How many `$ref`s it may hold. */
  maxRefs: 200,
} as const;

/** What a schema that passed {@link checkRemoteSchema} holds. */
export interface RemoteSchemaFacts {
  /** True when it has a `pattern` or `patternProperties`: it is validated with RE2, never a backtracking engine. */
  hasPatterns: boolean;
}

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

interface Frame {
  value: unknown;
  depth: number;
  key: string | undefined;
  parent: Frame | undefined;
}

/**
 * Checks a remote JSON Schema without recursion, so no schema can overflow the stack or stall the
 * process: nesting, size, `$ref`s (local, resolvable, never in a cycle) and regular expressions
 * (each must compile in RE2, a linear-time engine), and every text well-formed Unicode. Throws INVALID_DEFINITION saying what is wrong.
 */
export function checkRemoteSchema(schema: unknown): RemoteSchemaFacts {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw unsafe('it is not a JSON object');
  }
  const refs: { ref: string; at: Frame }[] = [];
  const patterns: string[] = [];
  const stack: Frame[] = [{ value: schema, depth: 1, key: undefined, parent: undefined }];
  let values = 0;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    values += 1;
    if (values > remoteSchemaLimits.maxValues) {
      throw unsafe(`it holds more than ${remoteSchemaLimits.maxValues} values`);
    }
    const { value } = frame;
    if (typeof value === 'string' && loneSurrogate.test(value)) {
      throw unsafe('a text in it is not well-formed Unicode (a lone surrogate)');
    }
    if (typeof value !== 'object' || value === null) continue;
    if (frame.depth > remoteSchemaLimits.maxDepth) {
      throw unsafe(`it nests deeper than ${remoteSchemaLimits.maxDepth} levels`);
    }
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [String(index), item])
      : Object.entries(value);
    for (const [key, child] of entries) {
      if (!Array.isArray(value)) {
        if (loneSurrogate.test(key))
          throw unsafe('a key in it is not well-formed Unicode (a lone surrogate)');
        if (key === '$ref' && typeof child === 'string') refs.push({ ref: child, at: frame });
        if (key === 'pattern' && typeof child === 'string') patterns.push(child);
        if (key === 'patternProperties' && typeof child === 'object' && child !== null) {
          patterns.push(...Object.keys(child));
        }
      }
      stack.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  checkRefs(schema, refs);
  for (const pattern of patterns) checkPattern(pattern);
  return { hasPatterns: patterns.length > 0 };
}

function checkRefs(root: object, refs: readonly { ref: string; at: Frame }[]): void {
  if (refs.length === 0) return;
  if (refs.length > remoteSchemaLimits.maxRefs) {
    throw unsafe(`it holds more than ${remoteSchemaLimits.maxRefs} $refs`);
  }
  const targets = new Map<string, string[]>();
  for (const { ref } of refs) {
    if (targets.has(ref)) continue;
    const path = pointerPath(ref);
    if (!resolves(root, path)) throw unsafe(`its $ref ${JSON.stringify(ref)} points at nothing`);
    targets.set(ref, path);
  }
  // ref A leads to ref B when B sits inside A's target; a path that comes back to A is a cycle.
  const occurrences = refs.map(({ ref, at }) => ({ ref, path: pathOf(at) }));
  const leadsTo = new Map<string, Set<string>>();
  for (const [ref, target] of targets) {
    const next = new Set<string>();
    for (const { ref: other, path } of occurrences) if (isWithin(path, target)) next.add(other);
    leadsTo.set(ref, next);
  }
  const done = new Set<string>();
  for (const start of targets.keys()) {
    if (done.has(start)) continue;
    const onPath = new Set<string>();
    const walk: { ref: string; children: string[] }[] = [
      { ref: start, children: [...(leadsTo.get(start) ?? [])] },
    ];
    onPath.add(start);
    while (walk.length > 0) {
      const top = walk[walk.length - 1] as { ref: string; children: string[] };
      const child = top.children.pop();
      if (child === undefined) {
        onPath.delete(top.ref);
        done.add(top.ref);
        walk.pop();
        continue;
      }
      if (onPath.has(child)) throw unsafe(`its $ref ${JSON.stringify(child)} is part of a cycle`);
      if (done.has(child)) continue;
      onPath.add(child);
      walk.push({ ref: child, children: [...(leadsTo.get(child) ?? [])] });
    }
  }
}

function pointerPath(ref: string): string[] {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) {
    throw unsafe(`its $ref ${JSON.stringify(ref)} is not a local JSON pointer ("#/…")`);
  }
  try {
    return ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));
  } catch {
    throw unsafe(`its $ref ${JSON.stringify(ref)} is not a valid JSON pointer`);
  }
}

function resolves(root: object, path: readonly string[]): boolean {
  let node: unknown = root;
  for (const part of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'object' && node !== null;
}

function pathOf(frame: Frame): string[] {
  const path: string[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

function isWithin(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((part, index) => path[index] === part);
}

function checkPattern(pattern: string): void {
  try {
    linearPattern(pattern);
  } catch (error) {
    throw unsafe(
      `its pattern ${JSON.stringify(pattern.slice(0, 200))} cannot run in a linear-time engine (${messageOf(error)})`,
    );
  }
}

function unsafe(why: string): ToolgateError {
  return new ToolgateError('INVALID_DEFINITION', `the schema cannot be used safely: ${why}`);
}
