import type { Locator, Page } from 'playwright-core';

/** The hosted sign-in page at /auth and its steps. */
export class HostedAuthPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly displayName: Locator;
  readonly newPassword: Locator;
  readonly error: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.email = page.getByLabel('Email', { exact: true });
    this.password = page.getByLabel('Password', { exact: true });
    this.displayName = page.getByLabel('Display name', { exact: true });
    this.newPassword = page.getByLabel('New password', { exact: true });
    this.error = page.getByRole('alert');
    this.status = page.getByRole('status');
  }

  /** `/auth` as the client's login() opens it: back to the app's root afterwards. */
  static url(serverUrl: string, extra: Record<string, string> = {}): string {
    const query = new URLSearchParams({ redirect_url: `${serverUrl}/`, project_id: 'fieldassist', ...extra });
    return `${serverUrl}/auth?${query.toString()}`;
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  providerLink(name: string): Locator {
    return this.page.getByRole('link', { name: `Continue with ${name}`, exact: true });
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.heading.filter({ hasText: 'Sign in' }).waitFor();
    await this.email.fill(email);
    await this.password.fill(password);
    await this.button('Sign In').click();
  }

  async signUp({
    displayName,
    email,
    password,
  }: {
    displayName: string;
    email: string;
    password: string;
  }): Promise<void> {
    await this.button('Create an account').click();
    await this.heading.filter({ hasText: 'Create your account' }).waitFor();
    await this.displayName.fill(displayName);
    await this.email.fill(email);
    await this.password.fill(password);
    await this.button('Create Account').click();
  }

  async requestMagicLink(email: string): Promise<void> {
    await this.button('Email me a sign-in link').click();
    await this.heading.filter({ hasText: 'Email me a sign-in link' }).waitFor();
    await this.email.fill(email);
    await this.button('Send Sign-In Link').click();
    await this.heading.filter({ hasText: 'Check your email' }).waitFor();
  }

  async requestPasswordReset(email: string): Promise<void> {
    await this.button('Forgot password?').click();
    await this.heading.filter({ hasText: 'Reset your password' }).waitFor();
    await this.email.fill(email);
    await this.button('Send Reset Link').click();
    await this.heading.filter({ hasText: 'Check your email' }).waitFor();
  }
}
