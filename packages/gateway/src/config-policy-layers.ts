import { statSync } from 'node:fs';
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
 * authoritative. The last entry may say `remember: true` (a file): an approver's `always` answer is
 * written to it as a rule.
 */
export const policyLayerSchema = z.union([
  z.strictObject({ layer: nonEmpty, file: nonEmpty, remember: z.literal(true).optional() }),
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

/**
 * The file `always` answers are written to: that of the entry with `remember: true`, which must be
 * the last entry (the least authoritative, so a remembered answer never loosens a layer above) and
 * a file, not a directory. `fail` words a problem with the entry's line.
 */
export function rememberingFile(
  entries: readonly PolicyLayerEntry[],
  paths: readonly PolicyLayerPath[],
  fail: (index: number, message: string, key: 'remember') => Error,
): string | undefined {
  const index = entries.findIndex((entry) => 'remember' in entry && entry.remember === true);
  if (index < 0) return undefined;
  if (index !== entries.length - 1)
    throw fail(
      index,
      'only the last layer, the least authoritative, may remember answers (an answer remembered above would override the layers below it); move this layer to the end of policy:',
      'remember',
    );
  const path = paths[index]!;
  if (isDirectory(path))
    throw fail(
      index,
      `${path} is a directory; answers are written to one file: name a policy file`,
      'remember',
    );
  return path;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
