#!/usr/bin/env node
// The `simulacra` command. It runs the TypeScript sources through tsx, so `npx simulacra`
// works straight after `npm install`, with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../main/cli/index.ts');
