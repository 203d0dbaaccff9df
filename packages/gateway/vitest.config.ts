import { conditionsWithoutModule, toolgateProject } from '../../vitest.shared.ts';

// The shared project shape but without the `module` condition, as @toolgate/otel's project: the
// OpenTelemetry SDK the `telemetry:` key loads ships an ESM build under `module` whose imports have
// no file extension, which Node cannot load (Node itself never uses `module`; no other dependency
// of the gateway has a `module` export).
export default toolgateProject('gateway', 60_000, conditionsWithoutModule);
