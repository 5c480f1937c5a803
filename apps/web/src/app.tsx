import { LandingPage } from '@/pages/landing-page';

// Signed-out visitors only, for now; the signed-in views and auth state arrive with sign-in.
export function App() {
  return <LandingPage />;
}
