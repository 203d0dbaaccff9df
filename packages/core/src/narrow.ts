import { ToolgateError } from './errors.js';
import type { Manifest } from './manifest.js';
import { exactGrant } from './pipeline/grant.js';

/** Names a derived agent may have: the manifest's characters plus `/`, 1–200 of them. */
const derivedNamePattern = /^[a-zA-Z0-9][a-zA-Z0-9_./-]{0,199}$/;

/**
 * The manifest of an agent derived from `parent` with `tools`: only a subset of the parent's
 * grant (exact names, as the grant check matches them). Widening is a programming error
 * (CAPABILITY_VIOLATION naming the tools and the parent); a malformed list or name is
 * INVALID_DEFINITION.
 */
export function narrowedManifest(parent: Manifest, tools: readonly string[], name?: string): Manifest {
  const child = name ?? `${parent.name}/sub`;
  if (typeof child !== 'string' || !derivedNamePattern.test(child)) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `cannot derive an agent named ${JSON.stringify(child)} from agent "${parent.name}": use 1–200 ` +
        'letters, digits, "_", ".", "-" or "/", starting with a letter or digit',
    );
  }
  return { name: child, tools: [...exactGrant(parent.name, parent.tools).narrow(tools, child).granted] };
}
