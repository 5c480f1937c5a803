import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';

import { useTheme } from '@/lib/theme';

const queryClient = new QueryClient({
  // Failures are shown by the screens; one retry covers a dropped connection.
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/** Data cache and toasts for every screen; one toast visible at a time (SPEC.md section 9). */
export function AppProviders({ children }: { children: ReactNode }) {
  const { resolved } = useTheme();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {/* At the bottom, above the chat's input row: never over the header's buttons or a page's
          heading. The app's own font (sonner brings another), and text dark enough for sunlight. */}
      <Toaster
        visibleToasts={1}
        theme={resolved}
        position="bottom-center"
        closeButton
        offset={{ bottom: 96 }}
        mobileOffset={{ bottom: 96, left: 12, right: 12 }}
        style={{ fontFamily: 'inherit' }}
        toastOptions={{ classNames: { toast: 'app-toast', description: 'app-toast-description' } }}
      />
    </QueryClientProvider>
  );
}
