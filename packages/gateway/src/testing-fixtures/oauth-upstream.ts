import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
  type TestClient,
} from './authorization-server.mjs';
import { type GuardedUpstream, type PublishedMetadata, startGuardedUpstream } from './guarded-upstream.js';

/** The secret the gateway's client at the test authorization server authenticates with. */
export const clientSecret = 'gateway-client-secret-0123456789';

/** What the upstream OAuth tests run against: an oidc-provider, the upstreams it guards, and gateways. */
export interface OAuthUpstreams {
  /** The oidc-provider, on loopback. */
  server: TestAuthorizationServer;
  /** The first upstream guarded by `server`. */
  upstream: GuardedUpstream;
  /** Starts another guarded upstream (by `server`, unless another `issuer` is given); closed by {@link close}. */
  startUpstream(options?: { metadata?: PublishedMetadata; issuer?: string }): Promise<GuardedUpstream>;
  /**
   * Writes `<name>.yaml` in the scratch directory: the server `secure` (prefix `sec`) at `upstream`
   * (the first by default) with `oauth: { <oauth> }` (none without `oauth`), the client `desktop`
   * granted `sec__*`, the `ledger` (`<name>.jsonl` by default) and `extra` lines; answers its path.
   */
  writeConfig(options: {
    name: string;
    oauth?: string;
    upstream?: { url: string };
    ledger?: string;
    extra?: string;
  }): string;
  /** Starts a gateway from the config at `path` (its log lines pushed to `logged`); closed by {@link close}. */
  startGateway(path: string, env: Record<string, string>, logged?: string[]): Promise<Gateway>;
  /** Closes the gateways, the upstreams and the provider, in that order. */
  close(): Promise<void>;
}

/**
 * Starts the test authorization server with `clients` and one upstream it guards (publishing
 * `metadata`, if given); configs and ledgers go in `dir`.
 *
 * @example
 * const place = scratch();
 * let oauth: OAuthUpstreams;
 * beforeAll(async () => {
 *   oauth = await startOAuthUpstreams({ dir: place.dir, clients: [{ clientId: 'gateway', secret: clientSecret, scope: 'tools' }] });
 * });
 * afterAll(async () => {
 *   await oauth?.close();
 *   place.remove();
 * });
 */
export async function startOAuthUpstreams(options: {
  dir: string;
  clients: TestClient[];
  metadata?: PublishedMetadata;
}): Promise<OAuthUpstreams> {
  const server = await startAuthorizationServer({ clients: options.clients });
  const upstreams: GuardedUpstream[] = [];
  const gateways: Gateway[] = [];
  const startUpstream: OAuthUpstreams['startUpstream'] = async ({ metadata, issuer } = {}) => {
    const upstream = await startGuardedUpstream(issuer ?? server.issuer, metadata);
    upstreams.push(upstream);
    return upstream;
  };
  const upstream = await startUpstream({ metadata: options.metadata });
  return {
    server,
    upstream,
    startUpstream,
    writeConfig: ({ name, oauth, upstream: at = upstream, ledger, extra = '' }) => {
      const path = join(options.dir, `${name}.yaml`);
      writeFileSync(
        path,
        `servers:
  secure:
    url: ${at.url}
    prefix: sec
${oauth === undefined ? '' : `    oauth: { ${oauth} }\n`}clients:
  desktop: { tools: ["sec__*"] }
ledger: ${JSON.stringify(ledger ?? join(options.dir, `${name}.jsonl`))}
${extra}`,
      );
      return path;
    },
    startGateway: async (path, env, logged = []) => {
      const gateway = await Gateway.start(await loadConfig(path, env), { log: (line) => logged.push(line) });
      gateways.push(gateway);
      return gateway;
    },
    close: async () => {
      for (const gateway of gateways) await gateway.close();
      for (const guarded of upstreams) await guarded.close();
      await server.close();
    },
  };
}
