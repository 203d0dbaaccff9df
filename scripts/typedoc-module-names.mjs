// A TypeDoc plugin for `pnpm docs`: names each module of the API reference by what a user imports
// (`@toolgate/ledger`, `@toolgate/ledger/testing`) instead of its source path (`ledger/src`,
// `ledger/src/testing`), which is how TypeDoc names entry points from several packages.
import { Converter, ReflectionKind } from 'typedoc';

/** Registers the renaming before links are resolved, so `{@link @toolgate/core!ToolGate}` resolves. */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const match = module.name.match(/^([a-z-]+)\/src(?:\/(.+))?$/);
      if (match) module.name = `@toolgate/${match[1]}${match[2] ? `/${match[2]}` : ''}`;
    }
  });
}
