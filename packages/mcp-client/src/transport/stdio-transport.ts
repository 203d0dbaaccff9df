import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How {@link ProcessGroupStdioTransport} starts a server. */
export interface ProcessGroupStdioOptions {
  command: string;
  args?: readonly string[];
  /** Variables on top of the SDK's safe defaults (HOME, PATH, …). */
  env?: Record<string, string>;
  cwd?: string;
  /** The most bytes of one message (one line) read before the stream is refused as too large. */
  maxBufferSize?: number;
}

const posix = process.platform !== 'win32';
const graceMs = 2000;
const disposeGraceMs = 1000;

const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms).unref())]);

/**
 * The MCP SDK's stdio client transport, but the server runs in its own process group (on POSIX),
 * and that whole group is killed when the transport closes (after the server had a chance to exit
 * on end of stdin) and when the server exits by itself — so a server's own children never outlive
 * it. The SDK's transport signals only the direct child.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: ProcessGroupStdioOptions;
  readonly #readBuffer: ReadBuffer;
  readonly #stderr = new PassThrough();
  #process: ChildProcess | undefined;
  #pid: number | undefined;

  constructor(options: ProcessGroupStdioOptions) {
    this.#options = options;
    this.#readBuffer = new ReadBuffer(
      options.maxBufferSize === undefined ? undefined : { maxBufferSize: options.maxBufferSize },
    );
  }

  /** The server's stderr, readable before {@link start} so early output is not lost. */
  get stderr(): PassThrough {
    return this.#stderr;
  }

  /** The server's pid (its process group's id) once started. */
  get pid(): number | undefined {
    return this.#process ? this.#pid : undefined;
  }

  start(): Promise<void> {
    if (this.#process) throw new Error('ProcessGroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.#options.command, [...(this.#options.args ?? [])], {
        env: { ...getDefaultEnvironment(), ...this.#options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        cwd: this.#options.cwd,
        detached: posix,
        windowsHide: true,
      });
      this.#process = child;
      this.#pid = child.pid;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.#killGroup();
        if (this.#process === child) this.#process = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.#readBuffer.append(chunk);
          this.#readMessages();
        } catch (error) {
          this.onerror?.(error as Error);
          void this.close();
        }
      });
      child.stderr?.pipe(this.#stderr);
    });
  }

  #readMessages(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  #killGroup(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.#pid === undefined) return;
    try {
      process.kill(posix ? -this.#pid : this.#pid, signal);
    } catch {
      // the group is already gone
    }
  }

  /** Ends stdin, gives the server 2 s to exit, then SIGTERM and SIGKILL; its group is killed in the end. */
  close(): Promise<void> {
    return this.#stop(graceMs);
  }

  /**
   * Stops a server that was only asked `server/discover` (the probe of `protocol: 'auto'`): stdin
   * ended and SIGTERM at once, SIGKILL after 1 s; its group is killed in the end.
   */
  dispose(): Promise<void> {
    return this.#stop(0);
  }

  async #stop(exitWithinMs: number): Promise<void> {
    const child = this.#process;
    if (child) {
      this.#process = undefined;
      const closed = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('close', () => resolve());
      });
      try {
        child.stdin?.end();
      } catch {
        // the pipe is already gone
      }
      if (exitWithinMs > 0) await settledWithin(closed, exitWithinMs);
      if (child.exitCode === null && child.signalCode === null) {
        this.#killGroup('SIGTERM');
        await settledWithin(closed, exitWithinMs > 0 ? graceMs : disposeGraceMs);
      }
      this.#killGroup('SIGKILL');
    }
    this.#readBuffer.clear();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.#process?.stdin;
      if (!stdin) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }
}
