import { type Grant, patternGrant } from '@toolgate/core';
import type { GatewayClient } from '../config-types.js';
import { uriGlob } from './uri-glob.js';

/** What one client may see and use of the upstreams' prompts and resources. */
export interface SurfaceGrant {
  /** Its `prompts` patterns, as a grant of prompt names (`prefix__name`). */
  readonly prompts: Grant;
  /** True when one of its `resources` patterns for the upstream keyed `key` (prefix, or name) matches `uri`. */
  resource(key: string, uri: string): boolean;
  /** The upstream keys its `resources` patterns name. */
  readonly resourceKeys: ReadonlySet<string>;
}

const grants = new WeakMap<GatewayClient, SurfaceGrant>();

/** The client's prompt and resource grants, compiled once per configuration in force. */
export function surfaceGrantOf(client: GatewayClient | undefined, name: string): SurfaceGrant {
  if (client === undefined)
    return { prompts: patternGrant(name, []), resource: () => false, resourceKeys: new Set() };
  const known = grants.get(client);
  if (known) return known;
  const byKey = new Map<string, Array<(uri: string) => boolean>>();
  for (const pattern of client.resources) {
    const colon = pattern.indexOf(':');
    const key = pattern.slice(0, colon);
    const tests = byKey.get(key) ?? [];
    tests.push(uriGlob(pattern.slice(colon + 1)));
    byKey.set(key, tests);
  }
  const grant: SurfaceGrant = {
    prompts: patternGrant(name, client.prompts),
    resource: (key, uri) => byKey.get(key)?.some((test) => test(uri)) === true,
    resourceKeys: new Set(byKey.keys()),
  };
  grants.set(client, grant);
  return grant;
}
