import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ElicitResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalRequest, Approver } from '@toolgate/core';
import { messageOf, ToolgateError } from '@toolgate/core';
import { callerDeadline, progressNotifier } from '@toolgate/mcp-server';
import { errorResult } from '@toolgate/mcp-server/internal';
import { answerOfContent, approvalQuestion, askingThrough, writingAlways } from './asking/index.js';
import { identityOf } from './auth/index.js';
import type { Gateway } from './gateway.js';
import type { GatewayCallOptions } from './gateway-options.js';
import { packageVersion } from './package-version.js';
import { toCallToolResult } from './result.js';
import { serveSurface, toolListFor } from './surface/index.js';

/**
 * The MCP server one connected client talks to: `tools/list` offers exactly the tools its grant
 * names (as approved), `tools/call` goes through the gateway (grant → policy → upstream), progress
 * and cancellation pass through, and a policy `ask` becomes an elicitation to this client when it
 * declared the capability (else a deny that says why). An answer given "for this session" holds
 * until this server closes (an HTTP session, or the stdio connection).
 */
export function createSessionServer(gateway: Gateway, client: string): Server {
  const server = new Server(
    { name: 'toolgate-gateway', version: packageVersion },
    { capabilities: { tools: { listChanged: true } } },
  );
  const session = serveSurface(server, gateway, client);
  // this connection's session: the answers its user gave "for this session" last until it closes
  const sessionId = randomUUID();
  const closed = server.onclose;
  server.onclose = () => {
    gateway.sessionAnswers.end(sessionId);
    closed?.();
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = await toolListFor(gateway, client);
    session.seen.tools = JSON.stringify(tools);
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const identity = identityOf(extra.authInfo);
    const options: GatewayCallOptions = {
      signal: extra.signal,
      ...(identity === undefined ? {} : { identity }),
    };
    const token = request.params._meta?.progressToken;
    if (token !== undefined) options.onProgress = progressNotifier(token, extra.sendNotification);
    // a toolgate client says how long it waits: the call (and its upstream call) ends by then
    const deadline = callerDeadline(request.params._meta);
    if (deadline !== undefined) options.deadline = deadline;
    const upstream = gateway.resolver.serverOf(request.params.name);
    const inFlight = {
      client,
      capabilities: () => server.getClientCapabilities(),
      ask: askingThrough(extra.sendRequest),
    };
    const end = upstream === undefined ? () => undefined : gateway.callsInFlight.begin(upstream, inFlight);
    const inCallContext = <T>(run: () => Promise<T>): Promise<T> =>
      upstream === undefined ? run() : gateway.callsInFlight.within(upstream, inFlight, run);
    try {
      const result = await inCallContext(() =>
        gateway.callTool(
          { client, tool: request.params.name, parameters: request.params.arguments ?? {} },
          {
            ...options,
            approver: writingAlways(
              gateway,
              gateway.sessionAnswers.approver(
                sessionId,
                elicitingApprover(server, extra.sendRequest, gateway.config.rememberFile !== undefined),
              ),
            ),
          },
        ),
      );
      return toCallToolResult(result, gateway.resolver.extras(request.params.name));
    } catch (error) {
      return errorResult(
        new ToolgateError('TOOL_FAILED', `the gateway could not record the call: ${messageOf(error)}`),
      );
    } finally {
      end();
    }
  });
  return server;
}

type SendRequest = Parameters<Parameters<Server['setRequestHandler']>[1]>[1]['sendRequest'];

/**
 * Asks the connected client's user, by MCP elicitation, to approve a call policy said `ask` for,
 * offering to remember the answer for this session, and for always when `always` (the policy has a
 * layer that remembers). A client that did not declare the elicitation capability gets a deny
 * saying so.
 */
function elicitingApprover(server: Server, sendRequest: SendRequest, always: boolean): Approver {
  return async (request: ApprovalRequest) => {
    if (!server.getClientCapabilities()?.elicitation) {
      return {
        approved: false,
        reason: 'this client did not declare the MCP elicitation capability, so nobody could be asked',
      };
    }
    // sent as part of the call (over HTTP: on the call's own response stream)
    const answer = await sendRequest(
      { method: 'elicitation/create', params: approvalQuestion(request, always) },
      ElicitResultSchema,
    );
    if (answer.action !== 'accept') return { approved: false, reason: `the user chose ${answer.action}` };
    return answerOfContent(answer.content, always);
  };
}
