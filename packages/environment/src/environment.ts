/** A path as the environment resolved it: the canonical form both policy and the operation use. */
export interface ResolvedPath {
  /**
   * Workspace-relative POSIX path after resolving `..` and symlinks (`.` for the root); the
   * absolute resolved path when it lies outside the root, which no relative policy rule matches.
   */
  readonly path: string;
  /** The absolute resolved path (in the environment's own namespace). */
  readonly absolute: string;
  /** False when the path escapes the root; every operation refuses such a path. */
  readonly inside: boolean;
}

/** Which lines of a file {@link Environment.readFile} returns. */
export interface ReadFileOptions {
  /** The first line to return, counting from 1. Default 1. */
  offset?: number;
  /** How many lines to return. Default: every line from `offset` on. */
  limit?: number;
}

/** Lines of a text file. */
export interface FileContent {
  /** Workspace-relative path of the file read. */
  path: string;
  /** The requested lines, joined with `\n`. */
  content: string;
  /** The number of the first line returned (1-based); `endLine < startLine` when none were. */
  startLine: number;
  /** The number of the last line returned. */
  endLine: number;
  /** How many lines the whole file has. */
  totalLines: number;
}

/** What {@link Environment.writeFile} did. */
export interface WriteResult {
  path: string;
  /** UTF-8 bytes written. */
  bytes: number;
  /** True when the file did not exist before. */
  created: boolean;
}

/** The kind of a directory entry. Symlinks are reported as such, never followed. */
export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

/** One entry of a directory listing. */
export interface DirectoryEntry {
  name: string;
  type: EntryType;
}

/** A directory's entries, sorted by name. */
export interface DirectoryListing {
  path: string;
  entries: DirectoryEntry[];
}

/** Files matching a glob, as sorted workspace-relative POSIX paths. */
export interface GlobResult {
  paths: string[];
}

/** How {@link Environment.search} searches. */
export interface SearchOptions {
  /** Only search files whose workspace-relative path matches this glob (picomatch syntax). */
  glob?: string;
  /** Keep at most this many matches (the first ones by path, then line). Default 1,000. */
  maxMatches?: number;
  /** Cut each matching line's text to this many characters. Default 1,000. */
  maxLineChars?: number;
  /**
   * True for a file (workspace-relative path) the search must not read: policy withholds it. It is
   * asked before any file is opened, and a withheld file is never read by the search nor reported;
   * the result counts them (`withheld`).
   */
  withhold?: (path: string) => boolean;
  /**
   * End the search after this many milliseconds: the time its caller has left (a tool passes what
   * remains to its call's deadline). Within the environment's `searchTimeoutMs` when one is set;
   * without either, the search ends after 30,000 ms.
   */
  timeoutMs?: number;
}

/** One matching line. */
export interface SearchMatch {
  /** Workspace-relative POSIX path. */
  path: string;
  /** Line number, counting from 1. */
  line: number;
  /** The line's text, capped at `maxLineChars` with a truncation marker. */
  text: string;
}

/** The result of a content search: the first matches by path then line, and how many there were. */
export interface SearchResult {
  matches: SearchMatch[];
  /** Every match found, including those left out of `matches`. */
  totalMatches: number;
  /** Which engine searched: ripgrep, or the JavaScript fallback. */
  engine: 'ripgrep' | 'javascript';
  /**
   * Lines ripgrep reported that did not hold, in the file opened inside the root, the text reported
   * (the tree changed while ripgrep walked it by name, or the file is a symlink escape or hard link
   * ripgrep was led to). They are dropped, and not counted in `totalMatches`. Present only when
   * some were dropped.
   */
  unverifiedMatches?: number;
  /** Files `withhold` held back (never read), among those the glob selected. Present only when some were. */
  withheld?: number;
}

/** How {@link Environment.exec} runs a command. */
export interface ExecOptions {
  /** Kill the command (and every process it started) after this many milliseconds. */
  timeoutMs?: number;
  /**
   * Aborting it kills the command and every process it started, as the timeout does; the call
   * then rejects with CANCELLED.
   */
  signal?: AbortSignal;
  /**
   * Told each piece of stdout and stderr as it arrives (UTF-8, never split inside a character),
   * before the command ends. A listener that throws is ignored.
   */
  onOutput?: (output: { stream: 'stdout' | 'stderr'; text: string }) => void;
  /** The tool call this command runs for, handed to a sandbox's egress judge with each destination. */
  callId?: string;
  /**
   * Judges this call's network destinations in a sandbox with `network: 'policy'`, beside the
   * environment's `egressJudge` (a tool passes one that asks policy for its own call): a destination
   * is contacted only when both allow it. True allows.
   */
  egressJudge?: (destination: {
    host: string;
    port: number;
    callId: string | undefined;
  }) => boolean | Promise<boolean>;
}

/** A sandbox limit a command ran into (see `SandboxLimits`), or the output cap. */
export interface ExecLimit {
  /** Which limit: the option that sets it. */
  name: 'processes' | 'memoryBytes' | 'fileBytes' | 'cpuSeconds' | 'tmpBytes' | 'outputBytes';
  /** Its value: a count, bytes or seconds. */
  value: number;
  /** What happened and what to do, for a person or a model. */
  message: string;
}

/** What a command did. A non-zero exit is data, not an error. */
export interface ExecResult {
  /** The exit code, or null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  /** True when the timeout killed it. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Bytes of stdout beyond the environment's output cap, not kept. */
  stdoutOmittedBytes: number;
  /** Bytes of stderr beyond the environment's output cap, not kept. */
  stderrOmittedBytes: number;
  /** The limit the command most likely ran into, when it ended over one (sandboxes only). */
  limit?: ExecLimit;
}

/** An HTTP request. Only `http:` and `https:` URLs are accepted. */
export interface FetchRequest {
  url: string;
  /** Default `GET`. */
  method?: string;
  /** Request headers. A `Host` header (any letter case) is refused: the host is the URL's. */
  headers?: Record<string, string>;
  body?: string;
  /** Overrides the environment's time cap for this request (never above it). */
  timeoutMs?: number;
  /**
   * Told each redirect target after the environment's own rules passed it and before it is
   * contacted (policy judges it here: the fetch tool asks `context.authorize`). Throwing ends the
   * fetch with that error, and nothing is sent to the target.
   */
  beforeRedirect?: (hop: RedirectHop) => void | Promise<void>;
}

/** A redirect target, as {@link FetchRequest.beforeRedirect} is told it. */
export interface RedirectHop {
  /** The absolute URL the response redirects to. */
  readonly url: string;
  /** Its lower-cased host name, without IPv6 brackets or a trailing dot. */
  readonly hostname: string;
  /** Which redirect this is: 1 for the first. */
  readonly number: number;
}

/** An HTTP response, with its body as text, capped. */
export interface FetchResponse {
  /** The URL of the last hop, after redirects. */
  url: string;
  status: number;
  statusText: string;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
  /** Bytes of the body beyond the environment's size cap, not kept. */
  omittedBytes: number;
  /** Every URL redirected to, in order. */
  redirects: string[];
}

/**
 * The one seam through which toolgate's built-in tools touch the world. Every refusal is a
 * `ToolgateError` whose code says which rule refused it (PATH_OUTSIDE_ROOT, INVALID_PATH,
 * PERMISSION_DENIED for a protected path, NOT_FOUND, NETWORK_REFUSED, NETWORK_FAILED, COMMAND_FAILED, TIMEOUT). Whether an effect *may*
 * happen is policy's business, not the environment's; the environment only keeps effects confined.
 */
export interface Environment {
  /** The absolute, resolved root every path is relative to. */
  readonly root: string;
  /** Canonicalises a path the way every operation does; refuses only malformed paths (NUL bytes). */
  resolvePath(path: string): Promise<ResolvedPath>;
  /** Reads lines of a text file. */
  readFile(path: string, options?: ReadFileOptions): Promise<FileContent>;
  /** Writes a text file, creating missing parent directories. */
  writeFile(path: string, content: string): Promise<WriteResult>;
  /** Lists a directory (default the root). */
  listDirectory(path?: string): Promise<DirectoryListing>;
  /** Files under the root matching a glob; patterns reaching out of the root are refused. */
  glob(pattern: string): Promise<GlobResult>;
  /** Searches file contents line by line for a JavaScript regular expression. */
  search(pattern: string, options?: SearchOptions): Promise<SearchResult>;
  /** Runs a shell command line inside the root. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Makes an HTTP(S) request under the environment's network rules. */
  fetch(request: FetchRequest): Promise<FetchResponse>;
}
