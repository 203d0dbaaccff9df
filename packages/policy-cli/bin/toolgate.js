#!/usr/bin/env node
// The command as installed: it runs the built CLI, and exists before the build so that
// `pnpm install` can link it in a fresh clone.
import '../dist/cli.js';
