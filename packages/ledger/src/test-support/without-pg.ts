/**
 * A `node --import` argument that makes `pg` unresolvable in the process it starts, as in a project
 * that never installed it: `spawn(process.execPath, ['--import', withoutPgImport, script])`.
 */
export const withoutPgImport = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register(${JSON.stringify(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (specifier === 'pg' || specifier.startsWith('pg/')) {
        const error = new Error("Cannot find package 'pg' imported from " + context.parentURL);
        error.code = 'ERR_MODULE_NOT_FOUND';
        throw error;
      }
      return next(specifier, context);
    }
  `)}`,
)});
`)}`;
