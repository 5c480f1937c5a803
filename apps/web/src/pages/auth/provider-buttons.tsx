import { Button } from '@/components/ui/button';

import { oauthStartUrl } from './auth-params';
import { OAUTH_PROVIDERS } from './provider-icons';

type ProviderButtonsProps = { providers: string[]; oidcName?: string | null };

/**
 * One button per configured OAuth provider. Each is a link to the server's start endpoint,
 * carrying this page's return address, state and popup details along.
 */
export function ProviderButtons({ providers, oidcName }: ProviderButtonsProps) {
  const shown = OAUTH_PROVIDERS.filter((provider) => providers.includes(provider.id));
  if (shown.length === 0) return null;
  return (
    <ul className="grid gap-3" aria-label="Other ways to sign in">
      {shown.map(({ id, label, icon: Icon }) => (
        <li key={id}>
          <Button asChild variant="outline" size="lg" className="w-full">
            <a href={oauthStartUrl(id, window.location.search)}>
              <Icon className="size-5" />
              Continue with {id === 'oidc' && oidcName ? oidcName : label}
            </a>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The line between the email form and the other ways in. */
export function OrDivider() {
  return (
    <div
      className="my-6 flex items-center gap-3 text-xs font-medium tracking-wide text-muted-foreground uppercase"
      aria-hidden="true"
    >
      <span className="h-px flex-1 bg-border" />
      or
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}
