// Runs extract-worker.ts from the sources (vitest, `tsx watch`): a worker thread does not
// inherit the parent's TypeScript loader, so this registers tsx first. The built server
// (dist) starts extract-worker.js directly and never loads this file.
import { register } from 'tsx/esm/api';

register();
await import('./extract-worker.ts');
