// `pnpm docs`: the API reference of every published package, from the TSDoc in its source, into
// docs/api/. Each package is one module (entryPointStrategy "packages"); its entry points are the
// subpaths its package.json exports (`.`, and `./testing` where there is one: those packages name
// both in their "typedocOptions"), so what is documented is what a user can import. `./internal`
// entries are left out on purpose. Warnings fail the build (treatWarningsAsErrors); a type a public
// signature names but its package does not export is a warning, unless that package lists it in
// "typedocOptions"."intentionallyNotExported" (mcp-client's CallOptions: a gap to close there).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('.', import.meta.url).pathname;
const packages = readdirSync(join(root, 'packages'))
  .sort()
  .map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')),
  }))
  .filter(({ manifest }) => !manifest.private);

// The documented entry points must be the exported ones: refuse a drift before typedoc runs.
for (const { dir, manifest } of packages) {
  const exported = Object.entries(manifest.exports ?? {})
    .filter(([subpath]) => subpath !== './package.json' && !subpath.startsWith('./internal'))
    .map(([, target]) => target['@toolgate/source']?.replace(/^\.\//, ''))
    .sort();
  const documented = [...(manifest.typedocOptions?.entryPoints ?? ['src/index.ts'])].sort();
  if (JSON.stringify(exported) !== JSON.stringify(documented)) {
    throw new Error(
      `packages/${dir}: exports ${exported.join(', ')} but documents ${documented.join(', ')}; ` +
        'set "typedocOptions": { "entryPoints": [...] } in its package.json to the exported source files',
    );
  }
}

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'toolgate',
  entryPointStrategy: 'resolve',
  entryPoints: packages.flatMap(({ dir, manifest }) =>
    (manifest.typedocOptions?.entryPoints ?? ['src/index.ts']).map((file) => `packages/${dir}/${file}`),
  ),
  tsconfig: 'tsconfig.docs.json',
  plugin: ['./scripts/typedoc-module-names.mjs'],
  excludePrivate: true,
  excludeInternal: true,
  intentionallyNotExported: packages.flatMap(
    ({ manifest }) => manifest.typedocOptions?.intentionallyNotExported ?? [],
  ),
  out: 'docs/api',
  readme: 'none',
  treatWarningsAsErrors: true,
  hideGenerator: true,
};
