import { LoadingScreen } from '@/components/loading-screen';
import { useAuth } from '@/hooks/use-auth';
import { HomePage } from '@/pages/home-page';
import { LandingPage } from '@/pages/landing-page';

/** SPEC.md section 2: a loading screen while auth state resolves, then the app or the landing page. */
export function App() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (!user) return <LandingPage />;
  return <HomePage user={user} />;
}
