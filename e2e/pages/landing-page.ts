import type { Locator, Page } from 'playwright-core';

/** The signed-out landing page (SPEC.md sections 1 and 2). */
export class LandingPage {
  readonly heading: Locator;
  readonly tagline: Locator;
  readonly signIn: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'FieldAssist' });
    this.tagline = page.getByText('AI-Powered Assistant', { exact: true });
    // SPEC.md section 1: one 'Sign In' button starts the provider's login.
    this.signIn = page.getByRole('button', { name: 'Sign In' });
  }

  featureTitles(): Promise<string[]> {
    return this.page.getByRole('heading', { level: 2 }).allTextContents();
  }

  /** Widest content on the page, to catch a horizontal scrollbar. */
  scrollWidth(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth);
  }
}
