import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';

import { MANUALS_KEY } from '@/hooks/use-library';
import { client } from '@/lib/client';
import { manualsTable, type Manual, type ProcessingStatus } from '@/lib/tables';

interface StatusChange {
  manualId: string;
  status: ProcessingStatus;
  error: string | null;
  pageCount: number | null;
}

interface ScanProgress {
  manualId: string;
  scannedPagesRead: number;
  scannedPages: number;
}

/** How many of a ready manual's passages the server has embedded for search so far. */
export interface IndexProgress {
  embedded: number;
  total: number;
}

type Finished = (manualId: string, status: 'ready' | 'failed') => void;

const isFinal = (status: ProcessingStatus): status is 'ready' | 'failed' => status === 'ready' || status === 'failed';

/**
 * Keeps each card's processing status live from the `manuals` channel, without a reload,
 * and tells `onFinished` when a manual passed to `watch` is ready or has failed. `indexing`
 * holds how far the server's background indexer has come with each manual still being
 * prepared for search (kept apart from the manuals list, which is reloaded meanwhile).
 */
export function useManualStatus(onFinished: Finished) {
  const queryClient = useQueryClient();
  const watched = useRef(new Set<string>());
  const finished = useRef(onFinished);
  const [indexing, setIndexing] = useState<Record<string, IndexProgress>>({});
  useEffect(() => {
    finished.current = onFinished;
  });

  const settle = useCallback((manualId: string, status: ProcessingStatus) => {
    if (!isFinal(status) || !watched.current.delete(manualId)) return;
    finished.current(manualId, status);
  }, []);

  useEffect(() => {
    let leave: (() => Promise<void>) | undefined;
    let gone = false;
    const apply = ({ manualId, status, error, pageCount }: StatusChange) => {
      const rows = queryClient.getQueryData<Manual[]>(MANUALS_KEY);
      // A manual this list has not loaded yet (saved elsewhere a moment ago): load it.
      if (!rows?.some((row) => row.id === manualId)) void queryClient.invalidateQueries({ queryKey: MANUALS_KEY });
      else {
        // A finished manual is loaded again, for what ingestion recorded (its OCR pages).
        const change = {
          processingStatus: status,
          processingError: error,
          pageCount,
          ...(isFinal(status) && { scanProgress: undefined }),
        };
        queryClient.setQueryData<Manual[]>(
          MANUALS_KEY,
          rows.map((row) => (row.id === manualId ? { ...row, ...change } : row)),
        );
        if (status === 'ready') void queryClient.invalidateQueries({ queryKey: MANUALS_KEY });
      }
      settle(manualId, status);
    };
    const progress = ({ manualId, scannedPagesRead, scannedPages }: ScanProgress) => {
      const rows = queryClient.getQueryData<Manual[]>(MANUALS_KEY);
      if (!rows?.some((row) => row.id === manualId)) return;
      const scanProgress = { read: scannedPagesRead, total: scannedPages };
      queryClient.setQueryData<Manual[]>(
        MANUALS_KEY,
        rows.map((row) => (row.id === manualId ? { ...row, processingStatus: 'processing', scanProgress } : row)),
      );
    };
    // A manual this list lacks is loaded once, not at every batch (the caller may not be allowed to read it).
    const looked = new Set<string>();
    const indexed = ({ manualId, embedded, total }: IndexProgress & { manualId: string }) => {
      const rows = queryClient.getQueryData<Manual[]>(MANUALS_KEY);
      if (!rows?.some((row) => row.id === manualId) && !looked.has(manualId)) {
        looked.add(manualId);
        void queryClient.invalidateQueries({ queryKey: MANUALS_KEY });
      }
      setIndexing(({ [manualId]: _done, ...others }) =>
        embedded < total ? { ...others, [manualId]: { embedded, total } } : others,
      );
    };
    client.realtime
      .subscribe('manuals', (message) => {
        if (message.type === 'manual.status') apply(message.data as StatusChange);
        else if (message.type === 'manual.progress') progress(message.data as ScanProgress);
        else if (message.type === 'manual.indexing') indexed(message.data as IndexProgress & { manualId: string });
      })
      .then(
        (channel) => (gone ? void channel.unsubscribe() : (leave = () => channel.unsubscribe())),
        (error: unknown) => console.warn('Live manual status is off:', error),
      );
    return () => {
      gone = true;
      void leave?.();
    };
  }, [queryClient, settle]);

  /** Reports this manual's outcome once; a manual already finished when saved is reported at once. */
  const watch = useCallback(
    async (manualId: string) => {
      watched.current.add(manualId);
      const row = await manualsTable.get(manualId).catch(() => null);
      if (row) settle(manualId, row.processingStatus);
    },
    [settle],
  );

  return { watch, indexing };
}
