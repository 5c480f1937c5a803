import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useState } from 'react';

import { TabLoading } from '@/components/tab-loading';

import { loadPdfjs, openPdf, pdfProblem, type Pdfjs } from './load-pdf';
import type { ManualTarget } from './manual-target';
import { PdfPages } from './pdf-pages';
import { ViewerProblem } from './viewer-problem';

type Opened =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; pdfjs: Pdfjs; doc: PDFDocumentProxy };

/** A PDF manual: loads pdf.js and the document (by byte ranges), then shows the cited page. */
export function PdfManual({ target }: { target: ManualTarget }) {
  const [attempt, setAttempt] = useState(0);
  const [opened, setOpened] = useState<Opened>({ status: 'loading' });

  useEffect(() => {
    let cancelled = false;
    let pdfjs: Pdfjs | undefined;
    let task: ReturnType<typeof openPdf> | undefined;
    loadPdfjs()
      .then((loaded) => {
        pdfjs = loaded;
        task = openPdf(loaded, target.fileUrl);
        return task.promise;
      })
      .then((doc) => !cancelled && pdfjs && setOpened({ status: 'ready', pdfjs, doc }))
      .catch((error: unknown) => {
        if (cancelled) return;
        console.warn('Opening the manual failed', error);
        setOpened({ status: 'error', message: pdfProblem(pdfjs, error) });
      });
    return () => {
      cancelled = true;
      // pdf.js's destroy rejects when the load it ends had failed ("file gone"): unhandled, it was a page error.
      task?.destroy().catch(() => undefined);
    };
  }, [target.fileUrl, attempt]);

  if (opened.status === 'loading') return <TabLoading label="Opening the manual…" />;
  if (opened.status === 'error') {
    const retry = () => {
      setOpened({ status: 'loading' });
      setAttempt((n) => n + 1);
    };
    return <ViewerProblem message={opened.message} onRetry={retry} />;
  }
  return <PdfPages pdfjs={opened.pdfjs} doc={opened.doc} target={target} />;
}
