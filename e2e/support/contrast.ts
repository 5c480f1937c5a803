import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's AAA contrast rule (7:1) on one element: the targets that fail it (read in sunlight). */
export async function contrastViolations(element: Locator): Promise<string[]> {
  await element.page().evaluate(AXE_SOURCE);
  return element.evaluate(async (node) => {
    const { axe } = window as unknown as {
      axe: {
        run: (context: unknown, options: unknown) => Promise<{ violations: { nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await axe.run(node, { runOnly: { type: 'rule', values: ['color-contrast-enhanced'] } });
    return result.violations.flatMap((violation) => violation.nodes.map((n) => n.target.join(' ')));
  });
}
