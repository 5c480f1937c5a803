import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from 'sonner';

import { sendJobChanges } from './job-sync';

/**
 * Sends what was queued on this device when the app starts online (also after it was closed
 * offline) and each time the network returns; then reloads the lists that changed.
 */
export function useOutboxSync(userId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const sync = async () => {
      const jobs = await sendJobChanges(userId);
      if (jobs.sent + jobs.refused.size === 0) return;
      await queryClient.invalidateQueries({ queryKey: ['jobs', userId] });
      if (jobs.sent > 0) toast.success(`${jobs.sent} job change${jobs.sent === 1 ? '' : 's'} made offline sent`);
      if (jobs.refused.size > 0)
        toast.warning('Some job changes made offline were not applied', {
          description: 'See My Jobs for what happened.',
        });
    };
    const run = () => void sync().catch((error: unknown) => console.warn('Sending the offline changes failed', error));
    run();
    window.addEventListener('online', run);
    return () => window.removeEventListener('online', run);
  }, [queryClient, userId]);
}
