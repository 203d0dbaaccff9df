import {
  layeredPolicy,
  type PolicyDocument,
  parsePolicy,
  parsePolicyText,
  type RulePolicy,
} from '@toolgate/core';
import { policyDocumentSchema } from '@toolgate/core/internal';
import { z } from 'zod';

const nonEmpty = z.string().min(1, 'must not be empty');

/**
 * One layer of the config's `policy:` list: a name and a policy file (`{ layer: managed, file:
 * /etc/toolgate/managed.yaml }`), or a name and the policy written inline (`{ layer: project,
 * rules: […] }`). The list runs from most to least authoritative.
 */
export const policyLayerSchema = z.union([
  z.strictObject({ layer: nonEmpty, file: nonEmpty }),
  policyDocumentSchema.extend({ layer: nonEmpty }),
]);

/** One layer of the config's `policy:` list, as checked. */
export type PolicyLayerEntry = z.infer<typeof policyLayerSchema>;

/** A file layer's text as read, with the path it was read from; undefined for an inline layer. */
export type PolicyLayerText = { path: string; text: string } | undefined;

/**
 * The config's layered policy: each entry's policy (its file's text, or the inline document) as a
 * layer of core's `layeredPolicy`, named by `layer`. `fail` words a layer's problem with its line.
 */
export function layeredConfigPolicy(
  entries: readonly PolicyLayerEntry[],
  texts: readonly PolicyLayerText[],
  fail: (index: number, message: string) => Error,
): RulePolicy {
  const layers = entries.map((entry, index) => {
    try {
      if ('file' in entry) {
        const read = texts[index]!;
        return { name: entry.layer, policy: parsePolicyText(read.text, read.path) };
      }
      const { layer, ...document } = entry;
      return { name: layer, policy: parsePolicy(document as PolicyDocument, `policy layer "${layer}"`) };
    } catch (error) {
      throw fail(index, (error as Error).message);
    }
  });
  try {
    return layeredPolicy(layers);
  } catch (error) {
    throw fail(0, (error as Error).message);
  }
}
