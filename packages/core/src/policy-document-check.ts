import type { PolicyDocument } from './policy.js';

/** A rule's keys in the order of the schema's shape (the order zod's output writes them in). */
const ruleKeys: Readonly<Record<string, number>> = {
  tools: 0,
  agents: 1,
  clients: 2,
  paths: 4,
  commands: 5,
  hosts: 6,
  resources: 7,
  decision: 9,
  reason: 10,
};
const decisions = new Set(['allow', 'deny', 'ask']);

/**
 * `data` itself when it is a policy of the common shapes only (rules of patterns, a decision and a
 * reason, keys in the schema's order), which is what `policyDocumentSchema` would return for it,
 * but for new arrays and objects; `undefined` for anything else, which the schema then judges (and
 * names what is wrong). Only for data nobody else holds (just parsed from text): the document keeps
 * `data`'s own objects. A generated allow-list of 10,000 rules is checked here without zod's
 * allocations per value.
 */
export function commonPolicyDocument(data: unknown): PolicyDocument | undefined {
  if (!isRecord(data)) return undefined;
  let rules: unknown;
  let keys = 0;
  for (const key in data) {
    const value = data[key];
    keys++;
    if (key === 'default' && keys === 1) {
      if (!decisions.has(value as string)) return undefined;
    } else if (key === 'rules') rules = value;
    else return undefined;
  }
  if (!Array.isArray(rules)) return undefined;
  for (const rule of rules) if (!isCommonRule(rule)) return undefined;
  return data as unknown as PolicyDocument;
}

function isCommonRule(rule: unknown): boolean {
  if (!isRecord(rule)) return false;
  let last = -1;
  let decided = false;
  for (const key in rule) {
    const order = Object.hasOwn(ruleKeys, key) ? ruleKeys[key]! : -1;
    if (order <= last) return false;
    last = order;
    decided ||= key === 'decision';
    const value = rule[key];
    if (
      key === 'decision'
        ? !decisions.has(value as string)
        : key === 'reason'
          ? typeof value !== 'string'
          : !isPatterns(value)
    )
      return false;
  }
  return decided;
}

function isPatterns(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (const pattern of value) if (typeof pattern !== 'string' || pattern.length === 0) return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
