import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { listSavedFiles, removeManualFile, saveManualFile, savedKeyOf } from '@/offline/saved-manuals';

const SAVED_KEY = ['savedManuals'];

/** Manuals kept on this device for offline use: which, how much space, save and remove. */
export function useSavedManuals() {
  const queryClient = useQueryClient();
  const available = typeof caches !== 'undefined';
  const saved = useQuery({ queryKey: SAVED_KEY, queryFn: listSavedFiles, enabled: available, networkMode: 'always' });
  const refresh = () => queryClient.invalidateQueries({ queryKey: SAVED_KEY });
  const save = useMutation({ mutationFn: saveManualFile, onSettled: refresh });
  const remove = useMutation({ mutationFn: removeManualFile, onSettled: refresh, networkMode: 'always' });
  const files = saved.data ?? new Map<string, number>();
  return {
    available,
    /** Bytes on the device for this file, or undefined when it is not saved. */
    sizeOf: (fileUrl: string) => files.get(savedKeyOf(fileUrl)),
    totalBytes: [...files.values()].reduce((sum, size) => sum + size, 0),
    count: files.size,
    save,
    remove,
  };
}
