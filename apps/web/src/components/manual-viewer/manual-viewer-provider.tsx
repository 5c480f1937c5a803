import { useEffect, useState, type ReactNode } from 'react';

import { useMediaQuery } from '@/hooks/use-media-query';

import { ManualViewer, PANEL_WIDTH } from './manual-viewer';
import type { ManualTarget } from './manual-target';
import { showManualsWith } from './open-manual';

// From the lg breakpoint the viewer is a panel beside the chat; below it, a full-screen sheet.
const WIDE = '(min-width: 1024px)';
// The chat gives way to the panel only by what the panel covers of it: the page's content is
// at most 80rem wide and centred, with a 1.5rem gutter.
const BESIDE_PANEL = `max(0px, ${PANEL_WIDTH} - 0.5rem - (100vw - min(100vw, 80rem)) / 2)`;

/** Shows the manual that openManual() asks for, beside or over `children` (the chat). */
export function ManualViewerProvider({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<ManualTarget | null>(null);
  const wide = useMediaQuery(WIDE);
  useEffect(() => showManualsWith(setTarget), []);
  return (
    <>
      <div style={target && wide ? { marginRight: `calc(${BESIDE_PANEL})` } : undefined}>{children}</div>
      {target && <ManualViewer target={target} asPanel={wide} onClose={() => setTarget(null)} />}
    </>
  );
}
