import type { ToolOutput } from './content.js';
import type { ToolContext } from './context.js';
import type { JsonObject, JsonValue } from './json.js';
import type { PolicySubject } from './policy.js';
import type { ToolDescription } from './tool.js';

/**
 * Serves tools that live outside this process (an MCP server, a recorded run). Every method is
 * async so a transport can implement it. The registry consults a resolver only after the grant
 * check has passed, so a resolver never sees a call the agent was not granted.
 */
export interface ToolResolver {
  /** True when this resolver serves a tool of exactly this name. */
  has(name: string): Promise<boolean>;
  /** The tool's description and schema, or undefined when it does not serve it. */
  describe(name: string): Promise<ToolDescription | undefined>;
  /**
   * Optional: who this resolver asks and what they serve, e.g. `the MCP servers attached ("files":
   * read_file, list_dir)`, for the error when a granted tool is served by none of them.
   */
  servingSummary?(): string;
  /**
   * Runs the tool and returns its output as JSON, or — when the result carries content parts
   * (images, audio, resources, several texts) — a `toolResult({ output, content })`. A failure the
   * model should read (the remote tool reported an error, the server is down) rejects with a
   * ToolgateError. `context` is the call's {@link ToolContext}: stop when its signal aborts (the
   * gate has stopped waiting), and pass progress on through `reportProgress`.
   */
  call(name: string, parameters: JsonObject, context: ToolContext): Promise<JsonValue | ToolOutput>;
  /**
   * Optional: what a call of this tool touches (resolved paths, parsed commands, hosts), computed
   * from validated parameters by rules the person who configured the resolver declared — never on
   * a server's word alone. Undefined (or no method) means toolgate cannot tell: policy rules on
   * paths, commands or hosts then apply only if they deny. A rejection refuses the call.
   */
  subject?(name: string, parameters: JsonObject): Promise<PolicySubject | undefined>;
}
