import type { z } from 'zod';

export declare const ZImageUrl: z.ZodString;
export declare function imageUrlProblem(raw: string): string | undefined;
