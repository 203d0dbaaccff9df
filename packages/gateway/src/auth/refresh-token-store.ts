import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { messageOf } from '@toolgate/core';

/**
 * Where an upstream's refresh token is kept: the one to send next, replaced when the authorization
 * server rotates it. Never put the token in a message.
 */
export interface RefreshTokenStore {
  /** The refresh token to send at the next renewal. */
  current(): string;
  /** Keeps `token` (the server's rotated one) for the next renewal. */
  save(token: string): Promise<void>;
}

/** A refresh token held in memory only (from `refresh_token:`); a rotated one lasts until restart. */
export function memoryRefreshToken(initial: string): RefreshTokenStore {
  let token = initial;
  return {
    current: () => token,
    save: async (next) => {
      token = next;
    },
  };
}

/**
 * A refresh token kept in `path` (from `refresh_token_file:`): read now (throws naming `key` and
 * the file, never its content), a rotated one written back atomically (a temporary file, mode
 * 0600, renamed over it). If the write fails the new token is still used from memory, and the
 * error names the file.
 */
export function fileRefreshToken(path: string, key: string): RefreshTokenStore {
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new Error(`${key}: the refresh token file ${path} could not be read: ${messageOf(error)}`);
  }
  if (token === '') {
    throw new Error(
      `${key}: the refresh token file ${path} is empty; put the upstream's refresh token in it`,
    );
  }
  return {
    current: () => token,
    save: async (next) => {
      token = next;
      const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await writeFile(temporary, `${next}\n`, { mode: 0o600, flag: 'wx' });
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw new Error(
          `${key}: the rotated refresh token could not be written to ${path} (${messageOf(error)}); it is used from memory until the gateway stops`,
        );
      }
    },
  };
}
