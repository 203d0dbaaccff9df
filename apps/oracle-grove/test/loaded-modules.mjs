// `node --import ./test/loaded-modules.mjs …`: at exit, appends every module the process loaded
// (ES modules, seen by a load hook, and CommonJS ones, from require's cache) to the file named by
// TOOLGATE_LOADED_MODULES, one path a line.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.TOOLGATE_LOADED_MODULES;
if (file) {
  register(
    `data:text/javascript,${encodeURIComponent(`
      import { appendFileSync } from 'node:fs';
      export async function load(url, context, next) {
        appendFileSync(${JSON.stringify(file)}, url + '\\n');
        return next(url, context);
      }
    `)}`,
  );
  process.on('exit', () => {
    const cached = Object.keys(createRequire(import.meta.url).cache);
    appendFileSync(file, cached.map((path) => `${path}\n`).join(''));
  });
}
