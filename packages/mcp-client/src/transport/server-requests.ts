import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../server-config.js';

/** A server's request to its client: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
export interface ServerRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** What answers a server's requests: a config's `onServerRequest`. */
export type ServerRequestAnswerer = NonNullable<McpServerConfig['onServerRequest']>;

/**
 * What the client declares when its config answers the server's requests: elicitation in form
 * mode with the schema's defaults applied to an accepted answer (SEP-1034), sampling, roots.
 */
const askingCapabilities: ClientCapabilities = {
  elicitation: { form: { applyDefaults: true } },
  sampling: {},
  roots: { listChanged: false },
};

/** The requests (legacy era) handed to a config's `onServerRequest`. */
export const askingRequests = [
  ElicitRequestSchema,
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
] as const;

/** The client capabilities declared to a server, in either era: the asking ones only when the config answers. */
export function clientCapabilities(config: McpServerConfig): ClientCapabilities {
  return config.onServerRequest === undefined ? {} : askingCapabilities;
}

/**
 * The config's answerer, with the requested schema's defaults filled into an accepted form
 * elicitation's content where the answer leaves a field out (SEP-1034), in both eras.
 */
export function answeringWithDefaults(answer: ServerRequestAnswerer): ServerRequestAnswerer {
  return async (request, signal) => withElicitationDefaults(request, await answer(request, signal));
}

/**
 * An elicitation's answer with the defaults of its requested schema's properties filled in where
 * an accepted form answer leaves them out; any other answer as it is.
 */
export function withElicitationDefaults(
  request: ServerRequest,
  answer: Record<string, unknown>,
): Record<string, unknown> {
  const params = request.params ?? {};
  if (request.method !== 'elicitation/create' || (params.mode ?? 'form') !== 'form') return answer;
  if (answer.action !== 'accept') return answer;
  const properties = (params.requestedSchema as { properties?: unknown } | undefined)?.properties;
  if (!isRecord(properties)) return answer;
  const content: Record<string, unknown> = isRecord(answer.content) ? { ...answer.content } : {};
  let filled = false;
  for (const [name, property] of Object.entries(properties)) {
    if (content[name] === undefined && isRecord(property) && Object.hasOwn(property, 'default')) {
      content[name] = property.default;
      filled = true;
    }
  }
  return filled ? { ...answer, content } : answer;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
