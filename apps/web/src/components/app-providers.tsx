import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';

const queryClient = new QueryClient({
  // Failures are shown by the screens; one retry covers a dropped connection.
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/** Data cache and toasts for every screen; one toast visible at a time (SPEC.md section 9). */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {/* Below the 4rem sticky header, so a toast never hides the tabs or Sign Out. */}
      <Toaster visibleToasts={1} position="top-center" richColors closeButton offset={{ top: 72 }} mobileOffset={{ top: 72 }} />
    </QueryClientProvider>
  );
}
