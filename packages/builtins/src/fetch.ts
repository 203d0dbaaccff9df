import { defineTool, type PolicySubject, type ToolContext, ToolgateError } from '@toolgate/core';
import type { Environment, RedirectHop } from '@toolgate/environment';
import { z } from 'zod';
import { capField, defaultFieldLimits, type FieldLimits } from './caps.js';
import { untilDeadline } from './time-left.js';

/**
 * The host policy matches for a URL: WHATWG-parsed (so `2130706433` is `127.0.0.1`), lower-cased,
 * without IPv6 brackets or a trailing dot.
 */
export function hostSubject(url: string): PolicySubject {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolgateError('INVALID_PARAMETERS', `${JSON.stringify(url)} is not a valid absolute URL`);
  }
  const host = parsed.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return { hosts: [host] };
}

/** True for the methods that only read: GET (the default) and HEAD, in any letter case. */
function isSafeMethod(method: string | undefined): boolean {
  const name = (method ?? 'GET').trim().toUpperCase();
  return name === 'GET' || name === 'HEAD';
}

/**
 * Ends a fetch at a redirect target policy does not allow for this call (deny, or an `ask` the
 * approver refused), before the target is contacted; each answer is recorded with the call.
 */
function judgeRedirect(context: ToolContext) {
  return async (hop: RedirectHop): Promise<void> => {
    const answer = await context.authorize(hostSubject(hop.url));
    if (answer.allowed) return;
    throw new ToolgateError(
      'PERMISSION_DENIED',
      `permission denied: redirect ${hop.number} of this request leads to ${hop.url}, which policy does not ` +
        `allow (${answer.reason}); nothing was sent there and the call ends here`,
    );
  };
}

/**
 * `fetch { url, method?, headers?, body? }` → `{ url, status, statusText, headers, body, redirects }`:
 * an HTTP(S) request under the environment's network rules, the body capped. Every redirect target
 * is judged by host policy (`context.authorize`) before it is contacted; a `Host` header is
 * refused. Parallel-safe for GET and HEAD only: a request that may change something never runs
 * beside another call.
 */
export function fetchTool(
  environment: Environment,
  caps: Pick<FieldLimits, 'maxFieldChars'> = defaultFieldLimits,
) {
  return defineTool({
    name: 'fetch',
    description: 'Make an HTTP or HTTPS request and return the status, headers and body text (capped).',
    input: z.object({
      url: z.string().describe('An absolute http: or https: URL.'),
      method: z.string().optional().describe('The HTTP method. Default GET.'),
      headers: z
        .record(z.string(), z.string())
        .optional()
        .describe("Request headers. No Host header: the host is the URL's."),
      body: z.string().optional().describe('The request body, as text.'),
    }),
    parallelSafe: ({ method }) => isSafeMethod(method),
    policySubject: ({ url }) => hostSubject(url),
    run: async ({ url, method, headers, body }, context) => {
      const response = await environment.fetch({
        url,
        beforeRedirect: judgeRedirect(context),
        // ends by the caller's deadline (a fetch has no signal), never above the environment's cap
        ...untilDeadline(context.deadline),
        ...(method === undefined ? {} : { method }),
        ...(headers === undefined ? {} : { headers }),
        ...(body === undefined ? {} : { body }),
      });
      return {
        url: response.url,
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        body: capField(response.body, caps.maxFieldChars, response.omittedBytes),
        redirects: response.redirects,
      };
    },
  });
}
