import { ToolgateError } from './errors.js';
import type { Manifest } from './manifest.js';

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
  if (!Array.isArray(tools) || tools.some((tool) => typeof tool !== 'string')) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `cannot derive agent "${child}" from agent "${parent.name}": tools must be an array of tool names`,
    );
  }
  const wider = tools.filter((tool) => !parent.tools.includes(tool));
  if (wider.length > 0) {
    const granted = parent.tools.length === 0 ? 'none' : parent.tools.map((t) => `"${t}"`).join(', ');
    throw new ToolgateError(
      'CAPABILITY_VIOLATION',
      `agent "${parent.name}" cannot give derived agent "${child}" tools it is not granted: ` +
        `${[...new Set(wider)].map((t) => JSON.stringify(t)).join(', ')} (granted: ${granted}); ` +
        "a derived agent can only narrow its parent's grant",
    );
  }
  return { name: child, tools: [...new Set(tools)] };
}
