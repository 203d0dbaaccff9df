import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import {
  layeredPolicy,
  type PolicyLayer,
  parsePolicyText,
  type RulePolicy,
  ToolgateError,
} from '@toolgate/core';

/** One layer as read from a file: its name and the file it came from. */
export interface PolicyFileLayer {
  readonly name: string;
  readonly file: string;
  /** Where the layer's rules start among the policy's `document.rules`, and how many there are. */
  readonly start: number;
  readonly rules: number;
}

/** A policy read from files and directories: the layered policy, and where each layer came from. */
export interface PolicyFiles {
  readonly policy: RulePolicy;
  /** Most authoritative first, as given. */
  readonly layers: readonly PolicyFileLayer[];
}

const policyExtensions = new Set(['.yaml', '.yml', '.json']);

/**
 * A policy from files and directories, most authoritative first: each file (YAML or JSON) is a
 * layer named after the file (`managed.yaml` is layer `managed`; `NAME=PATH` names it), each
 * directory gives a layer for each of its `.yaml`, `.yml` and `.json` files in name order, named
 * `DIRECTORY/FILE`. The layers are joined by `layeredPolicy`: a deny or ask of a layer cannot be
 * loosened by one below it, and every verdict names its layer. A file that cannot be read or is not
 * a policy throws a ToolgateError naming the file (and, for a bad rule, its line).
 *
 * @example
 * const { policy } = loadPolicyFiles(['/etc/toolgate/managed.yaml', 'toolgate.policy.yaml']);
 */
export function loadPolicyFiles(paths: readonly string[]): PolicyFiles {
  if (paths.length === 0)
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'no policy file given: name at least one file or directory',
    );
  const found = readPolicyLayers(
    paths.map((given) => {
      const named = /^([A-Za-z0-9_.-]+)=(.+)$/.exec(given);
      return named ? { name: named[1]!, path: named[2]! } : given;
    }),
  );
  const layers: PolicyLayer[] = found.map(({ name, policy }) => ({ name, policy }));
  let start = 0;
  const placed = found.map(({ name, file, policy }) => {
    const rules = policy.document.rules.length;
    start += rules;
    return { name, file, start: start - rules, rules };
  });
  return { policy: layeredPolicy(layers), layers: placed };
}

/** One layer {@link readPolicyLayers} read: its name, the file, and the file's policy. */
export interface PolicyFileRead {
  readonly name: string;
  readonly file: string;
  readonly policy: RulePolicy;
}

/**
 * The layers of policy files and directories, most authoritative first, not yet joined (the
 * gateway joins them with its inline layers): a file is one layer, named after the file or by
 * `name`; a directory is a layer for each of its `.yaml`, `.yml` and `.json` files in file-name
 * order (by UTF-16 code units, so `10-org` before `20-team` before `Z` before `a`), named
 * `NAME/FILE` (`NAME` is the directory's own name unless given); other files in it are ignored, and
 * subdirectories are not read. A directory without a policy file, a file that cannot be read or is
 * not a policy, and two layers of one name each throw a ToolgateError naming the path.
 *
 * @example
 * const layers = readPolicyLayers(['/etc/toolgate/managed.yaml', { name: 'team', path: './policy.d' }]);
 */
export function readPolicyLayers(
  sources: readonly (string | { readonly name: string; readonly path: string })[],
): PolicyFileRead[] {
  const found: PolicyFileRead[] = [];
  for (const source of sources) {
    const name = typeof source === 'string' ? undefined : source.name;
    const path = typeof source === 'string' ? source : source.path;
    if (isDirectory(path)) {
      const files = listDirectory(path)
        .filter((file) => policyExtensions.has(extname(file)) && !isDirectory(join(path, file)))
        .sort();
      if (files.length === 0)
        throw new ToolgateError(
          'INVALID_DEFINITION',
          `the policy directory ${path} holds no .yaml, .yml or .json file: put the layer's policy files in it`,
        );
      const prefix = name ?? basename(path);
      for (const file of files) {
        const inner = join(path, file);
        found.push({ name: `${prefix}/${withoutExtension(file)}`, file: inner, policy: read(inner) });
      }
    } else {
      found.push({ name: name ?? withoutExtension(basename(path)), file: path, policy: read(path) });
    }
  }
  const seen = new Map<string, string>();
  for (const layer of found) {
    const before = seen.get(layer.name);
    if (before !== undefined)
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `the policy files ${before} and ${layer.file} would both be layer "${layer.name}": ` +
          'name one of them with NAME=PATH',
      );
    seen.set(layer.name, layer.file);
  }
  return found;
}

/** The layer and index within it of rule `index` of a policy {@link loadPolicyFiles} read. */
export function placeOf(layers: readonly PolicyFileLayer[], index: number): { rule: number; layer: string } {
  const layer = layers.findLast((each) => each.start <= index && each.rules > 0) ?? layers[0]!;
  return { rule: index - layer.start, layer: layer.name };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // read() names what is wrong with it
  }
}

function listDirectory(path: string): string[] {
  try {
    return readdirSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `cannot read the policy directory ${path} (${code ?? (error as Error).message}): check its permissions`,
    );
  }
}

function read(path: string): RulePolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ToolgateError(
      code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_DEFINITION',
      `cannot read the policy file ${path} (${code ?? (error as Error).message}): check the path`,
    );
  }
  return parsePolicyText(text, path);
}

function withoutExtension(file: string): string {
  const extension = extname(file);
  return extension === '' ? file : file.slice(0, -extension.length);
}
