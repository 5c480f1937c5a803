import type { Locator, Page } from 'playwright-core';

/** The signed-in app: header with the product, the user and Sign Out. */
export class AppShell {
  readonly header: Locator;
  readonly signOut: Locator;
  readonly welcome: Locator;
  readonly signedInAs: Locator;

  constructor(readonly page: Page) {
    this.header = page.getByRole('banner');
    this.signOut = page.getByRole('button', { name: 'Sign Out', exact: true });
    this.welcome = page.getByRole('heading', { level: 1 });
    this.signedInAs = page.getByText('Signed in as');
  }

  /** Resolves once the app shows a signed-in user. */
  async waitUntilSignedIn(): Promise<void> {
    await this.signOut.waitFor({ state: 'visible' });
  }

  /** The token set the client keeps in localStorage (PLATFORM_API.md 2.1), or null. */
  storedTokens(): Promise<{ access_token: string; refresh_token?: string } | null> {
    return this.page.evaluate(() => {
      const raw = localStorage.getItem('blink_tokens_fieldassist');
      return raw ? (JSON.parse(raw) as { access_token: string; refresh_token?: string }) : null;
    });
  }
}
