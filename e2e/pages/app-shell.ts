import type { Locator, Page } from 'playwright-core';

export type TabLabel = 'AI Assistant' | 'My Jobs' | 'Manuals' | 'Add User' | 'Profile';
export const TAB_LABELS: TabLabel[] = ['AI Assistant', 'My Jobs', 'Manuals', 'Add User', 'Profile'];

/** The signed-in app: header with the product, the tabs, the user and Sign Out. */
export class AppShell {
  readonly header: Locator;
  readonly signOut: Locator;
  readonly welcome: Locator;
  readonly signedInAs: Locator;
  /** The tab bar of wide screens. */
  readonly tabBar: Locator;
  /** The hamburger of small screens. */
  readonly menuButton: Locator;
  readonly menu: Locator;
  /** The avatar button that opens Profile. */
  readonly avatarButton: Locator;
  readonly toast: Locator;

  constructor(readonly page: Page) {
    this.header = page.getByRole('banner');
    this.signOut = page.getByRole('button', { name: 'Sign Out', exact: true });
    this.welcome = page.getByRole('heading', { level: 1 });
    this.signedInAs = page.getByText('Signed in as');
    this.tabBar = page.getByRole('navigation', { name: 'Main' });
    this.menuButton = page.getByRole('button', { name: 'Open menu' });
    this.menu = page.getByRole('menu');
    this.avatarButton = this.header.getByRole('button', { name: /^Profile of / });
    this.toast = page.locator('[data-sonner-toast]');
  }

  /** Resolves once the app shows a signed-in user. */
  async waitUntilSignedIn(): Promise<void> {
    await this.signOut.waitFor({ state: 'visible' });
  }

  /** The visible tab panel with this label. */
  panel(label: TabLabel): Locator {
    return this.page.getByRole('main', { name: label });
  }

  /** Opens a tab the way a user would at this width: the tab bar, or the hamburger menu. */
  async openTab(label: TabLabel): Promise<Locator> {
    if (await this.tabBar.isVisible()) {
      await this.tabBar.getByRole('button', { name: label, exact: true }).click();
    } else {
      await this.menuButton.click();
      await this.menu.getByRole('menuitem', { name: label, exact: true }).click();
    }
    const panel = this.panel(label);
    await panel.waitFor();
    return panel;
  }

  /** The text of the newest toast, once one shows. */
  async toastText(): Promise<string> {
    await this.toast.first().waitFor();
    return (await this.toast.first().textContent()) ?? '';
  }

  /** The token set the client keeps in localStorage (PLATFORM_API.md 2.1), or null. */
  storedTokens(): Promise<{ access_token: string; refresh_token?: string } | null> {
    return this.page.evaluate(() => {
      const raw = localStorage.getItem('blink_tokens_fieldassist');
      return raw ? (JSON.parse(raw) as { access_token: string; refresh_token?: string }) : null;
    });
  }
}
