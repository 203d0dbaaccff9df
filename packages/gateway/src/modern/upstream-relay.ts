import { randomUUID } from 'node:crypto';
import type { RequestStateCodec, ServerContext } from '@modelcontextprotocol/server';
import type { AnsweredStates } from './answered-states.js';
import type { ApprovalState } from './approval-state.js';
import type { HeldCall, UpstreamAsk } from './held-call.js';
import type { HeldCalls } from './held-calls.js';

/** The client capability each upstream request needs. */
const capabilityOf: Record<string, 'elicitation' | 'sampling' | 'roots'> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** What one round of a held call needs. */
export interface RelayRound {
  heldCalls: HeldCalls;
  codec: RequestStateCodec<ApprovalState>;
  sdk: typeof import('@modelcontextprotocol/server');
  context: ServerContext;
  /** `callDigest` of the call, bound into its requestState. */
  call: string;
}

/** A round's outcome: the call's end, or the input_required result to answer the client. */
export type RoundOutcome<T> = { done: true; result: T } | { done: false; inputRequired: unknown };

/**
 * One round of a held call: waits for its end or its upstream's next requests. Requests come back
 * as an `input_required` result — under the gateway's keys, with a `requestState` bound to this
 * call, this round and this instance — after a check that the client declared what each needs on
 * this request: one it did not declare ends the call (its requests refused, the call cancelled)
 * with -32021 MissingRequiredClientCapability naming what is missing.
 */
export async function relayRound<T>(held: HeldCall<T>, round: RelayRound): Promise<RoundOutcome<T>> {
  const { heldCalls, codec, sdk, context } = round;
  let step: Awaited<ReturnType<HeldCall<T>['next']>>;
  try {
    step = await held.next(context.mcpReq.signal);
  } catch (error) {
    heldCalls.release(held as HeldCall<unknown>, 'it ended');
    throw error;
  }
  if (step.done) {
    heldCalls.release(held as HeldCall<unknown>, 'it ended and its result was given');
    return step;
  }
  const declared = declaredCapabilities(context, sdk);
  const missing = [...new Set(step.asks.map(([, ask]) => capabilityOf[ask.method]))].filter(
    (capability) => capability !== undefined && declared[capability] === undefined,
  ) as string[];
  if (missing.length > 0) {
    const names = missing.map((capability) => `"${capability}"`).join(', ');
    held.cancel(new Error(`the client did not declare the MCP ${names} capability`));
    heldCalls.release(held as HeldCall<unknown>, `its client did not declare ${names}`);
    throw new sdk.MissingRequiredClientCapabilityError(
      { requiredCapabilities: Object.fromEntries(missing.map((capability) => [capability, {}])) },
      `the upstream asked the client for ${step.asks.map(([, ask]) => ask.method).join(', ')} during this call, ` +
        `which needs the client capability ${names}: declare it in _meta (io.modelcontextprotocol/clientCapabilities) and call again`,
    );
  }
  heldCalls.hold(held as HeldCall<unknown>);
  const requestState = await codec.mint(
    {
      call: round.call,
      nonce: randomUUID(),
      expiresAt: Date.now() + heldCalls.holdMs,
      held: { id: held.id, round: held.round, instance: heldCalls.instance },
    },
    context,
  );
  const inputRequests = Object.fromEntries(step.asks.map(([key, ask]) => [key, inputRequestOf(ask)]));
  return { done: false, inputRequired: sdk.inputRequired({ inputRequests, requestState } as never) };
}

/**
 * The held call a retry's verified `state` names, its answers given (from the retry's
 * `inputResponses`); or why it cannot be resumed — a JSON-RPC error the client reads, never a
 * fresh start of the call.
 */
export function resumeHeld(
  state: ApprovalState & { held: NonNullable<ApprovalState['held']> },
  options: {
    heldCalls: HeldCalls;
    answered: AnsweredStates;
    sdk: typeof import('@modelcontextprotocol/server');
    context: ServerContext;
    bound: { client: string; owner: string; call: string };
  },
): HeldCall<unknown> {
  const { heldCalls, answered, sdk, context } = options;
  const refuse = (why: string) => new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, why);
  const found = heldCalls.find(state, options.bound);
  if ('refused' in found) throw refuse(found.refused);
  if (!answered.claim(state.nonce, state.expiresAt)) {
    throw refuse(
      'this requestState was answered already; send the requestState of the latest round, or call again without it',
    );
  }
  found.answer(context.mcpReq.inputResponses ?? {});
  return found;
}

/** The client capabilities declared on this request (the `_meta` envelope). */
function declaredCapabilities(
  context: ServerContext,
  sdk: typeof import('@modelcontextprotocol/server'),
): Record<string, unknown> {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[sdk.CLIENT_CAPABILITIES_META_KEY];
  return typeof declared === 'object' && declared !== null ? (declared as Record<string, unknown>) : {};
}

/** An upstream request as an input request: its method and params (roots/list may have none). */
function inputRequestOf(ask: UpstreamAsk): Record<string, unknown> {
  const params = ask.params === undefined ? undefined : withoutMeta(ask.params);
  return params === undefined ? { method: ask.method } : { method: ask.method, params };
}

/** Params without the upstream's `_meta` (its progress token and such mean nothing to the client). */
function withoutMeta(params: Record<string, unknown>): Record<string, unknown> {
  const { _meta: _, ...rest } = params;
  return rest;
}

/** What serving one held request needs besides the request: the process's held calls and state codec. */
export interface HeldServing {
  heldCalls: HeldCalls;
  answered: AnsweredStates;
  codec: RequestStateCodec<ApprovalState>;
  sdk: typeof import('@modelcontextprotocol/server');
  client: string;
  /** Who the client's token named ('' without one). */
  owner: string;
}

/**
 * Serves one modern request that may be held (`tools/call`, `prompts/get`): a retry whose verified
 * `requestState` names a held call resumes it with the retry's answers; any other request starts
 * `target.run` as a held call. Either way: the call's end, or the next `input_required`.
 */
export function serveHeld<T>(
  serving: HeldServing,
  context: ServerContext,
  target: { call: string; server: string | undefined; run: (signal: AbortSignal) => Promise<T> },
): Promise<RoundOutcome<T>> {
  const { heldCalls, answered, codec, sdk, client, owner } = serving;
  const round: RelayRound = { heldCalls, codec, sdk, context, call: target.call };
  const state = context.mcpReq.requestState<ApprovalState>();
  if (state?.held !== undefined) {
    const bound = { client, owner, call: target.call };
    const held = resumeHeld({ ...state, held: state.held }, { heldCalls, answered, sdk, context, bound });
    return relayRound(held as HeldCall<T>, round);
  }
  return relayRound(
    heldCalls.start({ client, owner, call: target.call, server: target.server, run: target.run }),
    round,
  );
}
