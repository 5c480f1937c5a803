import { useCallback, useEffect, useRef, useState } from 'react';

export type Attachment = { file: File; url: string };

/**
 * The photo waiting to be sent and its preview URL. The object URL is made when the photo is
 * picked and released when it is replaced, removed or the screen closes, so previews never leak.
 */
export function useAttachment() {
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  const latest = useRef<Attachment | null>(null);

  const replace = useCallback((file: File | null) => {
    if (latest.current) URL.revokeObjectURL(latest.current.url);
    latest.current = file ? { file, url: URL.createObjectURL(file) } : null;
    setAttachment(latest.current);
  }, []);
  const clear = useCallback(() => replace(null), [replace]);

  useEffect(
    () => () => {
      if (latest.current) URL.revokeObjectURL(latest.current.url);
      latest.current = null;
    },
    [],
  );

  return { attachment, attach: replace, clear };
}
