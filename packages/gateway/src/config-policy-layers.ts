import { layeredPolicy, type PolicyDocument, parsePolicy, type RulePolicy } from '@toolgate/core';
import { policyDocumentSchema } from '@toolgate/core/internal';
import { readPolicyLayers } from '@toolgate/policy-cli';
import { z } from 'zod';

const nonEmpty = z.string().min(1, 'must not be empty');

/**
 * One layer of the config's `policy:` list: a name and a policy file (`{ layer: managed, file:
 * /etc/toolgate/managed.yaml }`) or directory (`{ layer: team, file: ./policy.d }`: a layer
 * `team/NAME` for each of its `.yaml`, `.yml` and `.json` files, in file-name order), or a name and
 * the policy written inline (`{ layer: project, rules: […] }`). The list runs from most to least
 * authoritative.
 */
export const policyLayerSchema = z.union([
  z.strictObject({ layer: nonEmpty, file: nonEmpty }),
  policyDocumentSchema.extend({ layer: nonEmpty }),
]);

/** One layer of the config's `policy:` list, as checked. */
export type PolicyLayerEntry = z.infer<typeof policyLayerSchema>;

/** A file layer's path, resolved (variables expanded, relative to the config); undefined for an inline layer. */
export type PolicyLayerPath = string | undefined;

/**
 * The config's layered policy: each entry's policy (its file's, its directory's files', or the
 * inline document) as layers of core's `layeredPolicy`, read by policy-cli's `readPolicyLayers` (the
 * loader of `toolgate policy check` and `toolgate-mcp --policy`). `fail` words a layer's problem
 * with its line and key (`policy[1].file` for a file or directory that cannot be read).
 */
export function layeredConfigPolicy(
  entries: readonly PolicyLayerEntry[],
  paths: readonly PolicyLayerPath[],
  fail: (index: number, message: string, key?: 'file') => Error,
): RulePolicy {
  const layers = entries.flatMap((entry, index) => {
    try {
      if ('file' in entry) return readPolicyLayers([{ name: entry.layer, path: paths[index]! }]);
      const { layer, ...document } = entry;
      return [{ name: layer, policy: parsePolicy(document as PolicyDocument, `policy layer "${layer}"`) }];
    } catch (error) {
      throw fail(index, (error as Error).message, 'file' in entry ? 'file' : undefined);
    }
  });
  try {
    return layeredPolicy(layers);
  } catch (error) {
    throw fail(0, (error as Error).message);
  }
}
