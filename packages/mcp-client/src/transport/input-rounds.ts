import { setTimeout as sleep } from 'node:timers/promises';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { messageOf, ToolgateError } from '@toolgate/core';
import type { ServerRequest, ServerRequestAnswerer } from './server-requests.js';

/** How many times one call is sent again with answers before it is given up (the SDK's own default). */
export const maxInputRounds = 10;

/** The pause before sending again a round that asked nothing (a `requestState` only). */
const stateOnlyPauseMs = 250;

const askable = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/** The retry of a call: its parameters with the answers and the server's state. */
export interface InputRetry {
  inputResponses?: Record<string, Record<string, unknown>>;
  requestState?: unknown;
}

/** What {@link completeInputRounds} needs of the call. */
export interface InputRounds {
  /** The server's name and the tool's, for errors. */
  server: string;
  tool: string;
  /** The config's `onServerRequest` (with defaults applied), or undefined when nobody answers. */
  answer: ServerRequestAnswerer | undefined;
  /** Sends the call again, on a new request id, with these fields added to its parameters. */
  retry: (fields: InputRetry) => Promise<CallToolResult>;
  signal?: AbortSignal | undefined;
}

/**
 * A call's complete result, after answering each `input_required` result (MCP 2026-07-28
 * multi-round trip, SEP-2322): every input request of a round is put to the config's
 * `onServerRequest` — the seam that answers a legacy server's own requests — and the call is sent
 * again with the answers as `inputResponses` and the round's `requestState` exactly as it came (none
 * when none came). Without an answerer, an elicitation is declined and roots are an empty list;
 * sampling fails the call. Gives up with TOOL_FAILED after {@link maxInputRounds} rounds, or when
 * the server asks something malformed or an answer fails.
 */
export async function completeInputRounds(
  first: CallToolResult,
  rounds: InputRounds,
): Promise<CallToolResult> {
  let result = first;
  for (let round = 1; (result as { resultType?: unknown }).resultType === 'input_required'; round++) {
    if (round > maxInputRounds) {
      throw failed(
        rounds,
        `still answered input_required after ${maxInputRounds} rounds, each answered; the call is given up — fix the server`,
      );
    }
    const { inputRequests, requestState } = result as { inputRequests?: unknown; requestState?: unknown };
    const asked = requestsOf(inputRequests, rounds);
    const retry: InputRetry = requestState === undefined ? {} : { requestState };
    if (asked.length > 0) {
      const answers = await Promise.all(
        asked.map(async ([key, request]) => [key, await answer(request, rounds)]),
      );
      retry.inputResponses = Object.fromEntries(answers);
    } else {
      await sleep(stateOnlyPauseMs, undefined, rounds.signal ? { signal: rounds.signal } : {});
    }
    result = await rounds.retry(retry);
  }
  return result;
}

function requestsOf(inputRequests: unknown, rounds: InputRounds): Array<[string, ServerRequest]> {
  if (inputRequests === undefined) return [];
  const malformed = () =>
    failed(rounds, 'answered input_required with inputRequests that are not requests by key; fix the server');
  if (typeof inputRequests !== 'object' || inputRequests === null || Array.isArray(inputRequests))
    throw malformed();
  return Object.entries(inputRequests).map(([key, request]) => {
    const { method, params } = (request ?? {}) as { method?: unknown; params?: unknown };
    if (typeof method !== 'string') throw malformed();
    if (!askable.has(method)) {
      throw failed(
        rounds,
        `asked ${JSON.stringify(method.slice(0, 100))} by input_required, which no client answers`,
      );
    }
    const isObject = typeof params === 'object' && params !== null && !Array.isArray(params);
    return [key, isObject ? { method, params: params as Record<string, unknown> } : { method }];
  });
}

async function answer(request: ServerRequest, rounds: InputRounds): Promise<Record<string, unknown>> {
  if (rounds.answer === undefined) {
    if (request.method === 'elicitation/create') return { action: 'decline' };
    if (request.method === 'roots/list') return { roots: [] };
    throw failed(
      rounds,
      `asked ${request.method} by input_required, which this client cannot answer: its config has no onServerRequest`,
    );
  }
  try {
    return await rounds.answer(request, rounds.signal ?? new AbortController().signal);
  } catch (error) {
    if (ToolgateError.is(error)) throw error;
    throw failed(
      rounds,
      `asked ${request.method} by input_required, and the answer failed: ${messageOf(error)}`,
    );
  }
}

function failed(rounds: InputRounds, what: string): ToolgateError {
  return new ToolgateError(
    'TOOL_FAILED',
    `MCP server "${rounds.server}", in a call to "${rounds.tool}", ${what}`,
  );
}
