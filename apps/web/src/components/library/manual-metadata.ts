// The metadata the server reads from a manual (SPEC.md sections 3 and 5): 'Unknown' marks what
// was not found, and the server saves it as absent. The rules themselves live on the server.
export type { ManualMetadata as ExtractedMetadata } from '@fieldassist/client';
