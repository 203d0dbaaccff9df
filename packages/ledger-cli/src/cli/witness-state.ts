import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { UsageProblem } from './trust-io.js';

/** What a witness remembers per log origin: the latest checkpoint it cosigned. */
export interface WitnessedHead {
  readonly size: number;
  /** The root, base64. */
  readonly root: string;
}

/** A witness's state file: the latest cosigned head of each origin, updated atomically under a lock. */
export class WitnessState {
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
  }

  /** Runs `update` on the state while holding `PATH.lock`, and writes what it returns (tmp + rename). */
  async update<Result>(
    update: (heads: Record<string, WitnessedHead>) => {
      heads: Record<string, WitnessedHead>;
      result: Result;
    },
  ): Promise<Result> {
    const lock = `${this.#path}.lock`;
    let descriptor: number;
    try {
      descriptor = openSync(lock, 'wx');
    } catch (error) {
      throw new Error(
        (error as NodeJS.ErrnoException).code === 'EEXIST'
          ? `${lock} exists: another witness run holds the state (remove it if none is running)`
          : `cannot lock ${this.#path}: ${(error as Error).message}`,
      );
    }
    try {
      const { heads, result } = update(this.#read());
      const temporary = `${this.#path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify({ version: 1, heads }, null, 2)}\n`);
      renameSync(temporary, this.#path);
      return result;
    } finally {
      closeSync(descriptor);
      unlinkSync(lock);
    }
  }

  #read(): Record<string, WitnessedHead> {
    let text: string;
    try {
      text = readFileSync(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new UsageProblem(`cannot read the witness state ${this.#path}: ${(error as Error).message}`);
    }
    try {
      const value = JSON.parse(text) as { version?: unknown; heads?: Record<string, WitnessedHead> };
      if (value.version !== 1 || typeof value.heads !== 'object' || value.heads === null)
        throw new Error('not version 1');
      return value.heads;
    } catch (error) {
      throw new UsageProblem(
        `${this.#path} is not a witness state file (${(error as Error).message}); give the file a witness wrote, or a new path`,
      );
    }
  }
}
