import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ToolgateError } from '@toolgate/core';

/** The page's script and styles, bundled at build time (esbuild) into `dist/viewer/page/`. */
export interface PageAssets {
  readonly script: string;
  readonly styles: string;
}

// The same path from src/viewer/ (tests) and dist/viewer/ (the built package): the package root's dist.
const pageDirectory = new URL('../../dist/viewer/page/', import.meta.url);

let cached: Promise<PageAssets> | undefined;

/** Reads the bundled page once; a missing bundle is LEDGER_UNAVAILABLE saying how to build it. */
export function pageAssets(): Promise<PageAssets> {
  cached ??= Promise.all([
    readFile(new URL('main.js', pageDirectory), 'utf8'),
    readFile(new URL('styles.css', pageDirectory), 'utf8'),
  ]).then(
    ([script, styles]) => ({ script, styles }),
    (error: unknown) => {
      cached = undefined;
      throw new ToolgateError(
        'LEDGER_UNAVAILABLE',
        `the viewer page is not built (${(error as Error).message}); run "pnpm build" in packages/ledger`,
        { cause: error },
      );
    },
  );
  return cached;
}

/** The CSP source of an inline script or style: `'sha256-…'`. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}
