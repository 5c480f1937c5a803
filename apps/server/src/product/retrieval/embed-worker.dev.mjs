// Runs embed-worker.ts from the sources (vitest, tsx): a worker thread does not inherit the
// parent's TypeScript loader, so this registers tsx first. The built server starts embed-worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./embed-worker.ts');
