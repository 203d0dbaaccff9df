import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  ListRootsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '@toolgate/core';
import type { Gateway } from '../gateway.js';
import { rpcError } from '../surface/refusals.js';
import type { CallInFlight } from './calls-in-flight.js';

type Kind = 'elicitation' | 'sampling' | 'roots';
type UpstreamRequest = { method: string; params?: Record<string, unknown> };

const kinds: Record<string, Kind> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Per gateway, the upstreams whose roots/list outside any call was already recorded. */
const rootsToldOutsideCalls = new WeakMap<Gateway, Set<string>>();

const resultSchemas = {
  elicitation: ElicitResultSchema,
  sampling: CreateMessageResultSchema,
  roots: ListRootsResultSchema,
} as const;

/**
 * Answers an upstream's request to its client (elicitation, sampling, roots) by passing it to the
 * client whose call is under way on that upstream, when that client declared the capability and
 * its config allows it (`clients.X.elicitation|sampling|roots`). Otherwise it is declined — an
 * elicitation as `decline`, roots as an empty list, sampling as an error — with the reason told to the operator.
 * Either way it is recorded as `upstream.asked` (client, server, method, outcome, reason).
 */
export async function passRequest(
  gateway: Gateway,
  server: string,
  request: UpstreamRequest,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const kind = kinds[request.method];
  if (kind === undefined)
    throw rpcError(ErrorCode.MethodNotFound, `the gateway does not pass on ${request.method}`);
  const owner = gateway.callsInFlight.owner(server);
  const client = 'client' in owner ? owner.client : undefined;
  const refusal = 'none' in owner ? owner.none : refusalFor(gateway, owner, kind);
  if (refusal !== undefined) {
    // Many servers list roots as they start, with no call to tie it to: that is recorded (and
    // logged) once per upstream and process, not again on every start of its session.
    if (kind === 'roots' && 'none' in owner) {
      const told = rootsToldOutsideCalls.get(gateway) ?? new Set<string>();
      rootsToldOutsideCalls.set(gateway, told);
      if (told.has(server)) return { roots: [] };
      told.add(server);
    }
    const reason = `upstream "${server}" asked ${request.method}, declined: ${refusal}`;
    gateway.log(reason);
    await gateway.note('upstream.asked', {
      ...(client === undefined ? {} : { client }),
      server,
      method: request.method,
      outcome: 'declined',
      reason: refusal,
    });
    if (kind === 'elicitation') return { action: 'decline' };
    if (kind === 'roots') return { roots: [] }; // nothing shown: the upstream sees no root of anyone
    throw rpcError(ErrorCode.InvalidRequest, `toolgate-gateway declined ${request.method}: ${refusal}`);
  }
  const call = owner as CallInFlight;
  try {
    const answer = await call.ask(request, signal);
    const action: Record<string, string> = typeof answer.action === 'string' ? { action: answer.action } : {};
    await gateway.note('upstream.asked', {
      client: call.client,
      server,
      method: request.method,
      outcome: 'answered',
      ...action,
    });
    return answer;
  } catch (error) {
    await gateway.note('upstream.asked', {
      client: call.client,
      server,
      method: request.method,
      outcome: 'failed',
      reason: messageOf(error),
    });
    throw error;
  }
}

function refusalFor(gateway: Gateway, call: CallInFlight, kind: Kind): string | undefined {
  const client = gateway.client(call.client);
  if (client === undefined) return `"${call.client}" is no longer a client of ${gateway.config.source}`;
  if (client.asks[kind] === 'deny') {
    return `clients.${call.client}.${kind} is deny in ${gateway.config.source} (set it to allow to let upstreams ask this client)`;
  }
  if (call.capabilities()?.[kind] === undefined) {
    return `client "${call.client}" did not declare the MCP ${kind} capability`;
  }
  return undefined;
}

type SendRequest = Parameters<Parameters<Server['setRequestHandler']>[1]>[1]['sendRequest'];

/** How a call in flight asks its client: by the call's own `sendRequest`, checked against the method's result schema. */
export function askingThrough(sendRequest: SendRequest): CallInFlight['ask'] {
  return async (request, signal) => {
    const kind = kinds[request.method] ?? 'elicitation';
    const result = await sendRequest(request as never, resultSchemas[kind], { signal });
    return result as Record<string, unknown>;
  };
}
