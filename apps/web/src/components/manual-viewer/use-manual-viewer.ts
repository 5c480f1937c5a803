import { createContext, useContext } from 'react';

import type { ManualTarget } from './manual-target';

export type ManualViewerControls = {
  /** Opens the manual at the target's page with its passage marked; a second call moves the open viewer. */
  openManual: (target: ManualTarget) => void;
  isOpen: boolean;
};

export const ManualViewerContext = createContext<ManualViewerControls | null>(null);

/** The in-app manual viewer of the nearest ManualViewerProvider (the chat has one). */
export function useManualViewer(): ManualViewerControls {
  const controls = useContext(ManualViewerContext);
  if (!controls) throw new Error('useManualViewer needs a ManualViewerProvider above it');
  return controls;
}
