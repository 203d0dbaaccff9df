// Preloaded with `node --import` by the gateway's postgres test: a resolve hook that makes `pg` missing,
// as in a project that never installed it.
import { register } from 'node:module';

register(
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
);
