import { randomUUID } from 'node:crypto';
import type { RequestStateCodec, ServerContext, Server as ServerType } from '@modelcontextprotocol/server';
import type { ApprovalRequest, Approver, CallOptions, ToolResult } from '@toolgate/core';
import { messageOf, ToolgateError } from '@toolgate/core';
import { progressNotifier } from '@toolgate/mcp-server';
import { errorResult } from '@toolgate/mcp-server/internal';
import { answerOfContent, approvalQuestion, writingAlways } from '../asking/index.js';
import type { CallerIdentity } from '../auth/index.js';
import type { Gateway } from '../gateway.js';
import type { GatewayCallOptions } from '../gateway-options.js';
import { packageVersion } from '../package-version.js';
import { toCallToolResult } from '../result.js';
import type { AnsweredStates } from './answered-states.js';
import { type ApprovalState, approvalStateTtlSeconds, callDigest } from './approval-state.js';
import type { HeldCalls } from './held-calls.js';
import { type ModernSurface, modernCapabilities, serveModernSurface } from './modern-surface.js';
import { type HeldServing, serveHeld } from './upstream-relay.js';

/** An answer given outside the gate: here, the client's, carried by its retry (with how far it reaches). */
type RetryAnswer = NonNullable<CallOptions['decision']> & { scope?: string };

/** The key of the one input request an `ask` sends: the approval. */
export const approvalKey = 'toolgate.approval';

/** What {@link createModernGatewayServer} takes. */
export interface ModernGatewayServerOptions {
  gateway: Gateway;
  /** The client the bearer token named. */
  client: string;
  /** Who its access token named, when it brought one (recorded with each call). */
  identity?: CallerIdentity | undefined;
  codec: RequestStateCodec<ApprovalState>;
  /** The states this process has taken an answer from. */
  answered: AnsweredStates;
  /** The calls this process holds while their upstreams ask the client (one per process and side). */
  heldCalls: HeldCalls;
  /** The SDK's 2.x module (loaded once by the caller). */
  sdk: typeof import('@modelcontextprotocol/server');
  /**
   * What the upstreams serve this client (`modernSurfaceOf`): what `server/discover` declares and
   * what this server answers. Default: tools only.
   */
  surface?: ModernSurface;
}

/**
 * The server of one 2026-07-28 request to the gateway: `tools/list` offers exactly the client's
 * grant (`cacheScope: private`: a list is one client's), `tools/call` runs through the gateway's
 * gate, and a policy `ask` reaches the client by multi-round trip — the call answers
 * `input_required` with an elicitation and a signed `requestState` bound to this client and to
 * this tool and these arguments; the client's retry carries the answer, which the gate records as
 * the caller's decision (`answer.from: caller`). The first round is recorded too: asked, not run.
 * The user may answer `once`, `session` (remembered for this client and the identity its token
 * named, while this gateway runs: no later call of the same tool on the same subject asks) or,
 * where a layer remembers, `always`; those two are recorded as the approver's, with their scope.
 * Prompts, resources and completion are served as `options.surface` says (see `serveModernSurface`),
 * so `server/discover` declares the union of what the upstreams serve this client.
 */
export function createModernGatewayServer(options: ModernGatewayServerOptions): ServerType {
  const { gateway, client, codec, sdk } = options;
  const surface = options.surface ?? { tools: true, prompts: false, resources: false, completions: false };
  const server = new sdk.Server(
    { name: 'toolgate-gateway', version: packageVersion },
    { capabilities: modernCapabilities(surface), requestState: { verify: codec.verify } },
  );
  serveModernSurface(server, gateway, client, surface, heldServing(options));
  if (surface.tools) serveModernTools(server, options);
  return server;
}

/** What serving a held request of this client needs. */
function heldServing(options: ModernGatewayServerOptions): HeldServing {
  const { heldCalls, answered, codec, sdk, client, identity } = options;
  const owner = identity === undefined ? '' : `${identity.issuer ?? ''}\0${identity.subject ?? ''}`;
  return { heldCalls, answered, codec, sdk, client, owner };
}

/** `tools/list` and `tools/call` of one modern request (see {@link createModernGatewayServer}). */
function serveModernTools(server: ServerType, options: ModernGatewayServerOptions): void {
  const { gateway, client, codec, answered, sdk, identity } = options;
  const serving = heldServing(options);
  server.setRequestHandler('tools/list', async () => {
    const tools = (await gateway.toolsFor(client)).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
    }));
    return { tools, ttlMs: 0, cacheScope: 'private' as const };
  });
  server.setRequestHandler('tools/call', async (request, context) => {
    const { name } = request.params;
    const parameters = request.params.arguments ?? {};
    const options: GatewayCallOptions = {
      signal: context.mcpReq.signal,
      ...(identity === undefined ? {} : { identity }),
    };
    const token = request.params._meta?.progressToken;
    if (token !== undefined) options.onProgress = progressNotifier(token, context.mcpReq.notify as never);
    const state = context.mcpReq.requestState<ApprovalState>();
    const call = callDigest(name, parameters);
    if (state?.held !== undefined) {
      // a retry of a held call: resumed with its answers, or refused (never started afresh)
      const outcome = await serveHeld<ToolResult>(serving, context, { call, server: undefined, run: never });
      return (outcome.done ? toCallToolResult(outcome.result) : outcome.inputRequired) as never;
    }
    if (state !== undefined && state.call !== call) {
      return errorResult(
        new ToolgateError(
          'PERMISSION_DENIED',
          `the requestState sent with this call of "${name}" was issued for another call (another tool or ` +
            'other arguments); call the tool again without it and answer the approval it asks for',
        ),
      ) as never;
    }
    if (state !== undefined && !answered.claim(state.nonce, state.expiresAt)) {
      return errorResult(
        new ToolgateError(
          'PERMISSION_DENIED',
          `the requestState sent with this call of "${name}" was answered already; an answer approves one ` +
            'call: call the tool again without it and answer the approval it asks for',
        ),
      ) as never;
    }
    let asked: ApprovalRequest | undefined;
    // the capabilities the client declared on this request (the validated `_meta` envelope)
    const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
    const declared = envelope?.[sdk.CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown } | undefined;
    const canElicit = declared?.elicitation !== undefined;
    const askByInputRequired: Approver = async (ask) => {
      asked = ask;
      return canElicit
        ? { approved: false, reason: 'asked the client by input_required; its answer comes with the retry' }
        : {
            approved: false,
            reason: 'this client did not declare the MCP elicitation capability, so nobody could be asked',
          };
    };
    // "for this session": this client as its token named it, for the life of this gateway process
    const session = `modern\0${client}\0${identity?.issuer ?? ''}\0${identity?.subject ?? ''}`;
    const answer = state === undefined ? undefined : answerOf(context, client, always(gateway));
    let approver = gateway.sessionAnswers.approver(session, askByInputRequired);
    // an answer that reaches past this call goes through the approvers that remember it
    if (answer?.scope === 'always') approver = writingAlways(gateway, () => answer);
    else if (answer?.scope === 'session') approver = gateway.sessionAnswers.approver(session, () => answer);
    else if (answer !== undefined) options.decision = answer;
    try {
      // held while the upstream asks the client something: each ask comes back as input_required
      const outcome = await serveHeld(serving, context, {
        call,
        server: gateway.resolver.serverOf(name),
        run: (signal) =>
          gateway.callTool({ client, tool: name, parameters }, { ...options, signal, approver }),
      });
      if (!outcome.done) return outcome.inputRequired as never;
      const result = outcome.result;
      if (asked !== undefined && canElicit && state === undefined) {
        return sdk.inputRequired({
          inputRequests: {
            [approvalKey]: sdk.inputRequired.elicit(approvalQuestion(asked, always(gateway))),
          },
          requestState: await codec.mint(
            {
              call: callDigest(name, parameters),
              nonce: randomUUID(),
              expiresAt: Date.now() + approvalStateTtlSeconds * 1000,
            },
            context,
          ),
        }) as never;
      }
      return toCallToolResult(result) as never;
    } catch (error) {
      if (error instanceof sdk.ProtocolError) throw error;
      return errorResult(
        new ToolgateError('TOOL_FAILED', `the gateway could not record the call: ${messageOf(error)}`),
      ) as never;
    }
  });
}

/**
 * The client's answer to the approval, from the retry's input responses: the caller's decision, with
 * the `scope` the user chose when it reaches past this call (`session`, `always`).
 */
function answerOf(context: ServerContext, client: string, always: boolean): RetryAnswer {
  const by = `client "${client}" (its user, by input_required)`;
  const response = context.mcpReq.inputResponses?.[approvalKey] as
    | { action?: string; content?: Record<string, unknown> }
    | undefined;
  if (response === undefined) return { approved: false, by, reason: 'the retry carried no answer' };
  if (response.action !== 'accept')
    return { approved: false, by, reason: `the user chose ${response.action}` };
  return { ...answerOfContent(response.content, always), by };
}

/** A retry of a held call runs nothing new: `serveHeld` resumes the call the state names. */
function never(): Promise<never> {
  return Promise.reject(new Error('a held call is resumed, never started by its retry'));
}

/** Whether the policy has a layer that remembers `always` answers. */
function always(gateway: Gateway): boolean {
  return gateway.config.rememberFile !== undefined;
}
