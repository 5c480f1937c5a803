import type { Locator, Page } from 'playwright-core';

/** The Profile tab. */
export class ProfilePage {
  readonly panel: Locator;
  readonly avatarInput: Locator;
  readonly changePhoto: Locator;
  readonly avatarImage: Locator;
  readonly displayName: Locator;
  readonly email: Locator;
  readonly phone: Locator;
  readonly save: Locator;
  readonly reset: Locator;
  readonly accountInfo: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('main', { name: 'Profile' });
    this.avatarInput = this.panel.getByTestId('avatar-input');
    this.changePhoto = this.panel.getByRole('button', { name: 'Change Photo' });
    this.avatarImage = this.panel.locator('img');
    this.displayName = this.panel.getByLabel('Display Name');
    this.email = this.panel.getByLabel('Email', { exact: true });
    this.phone = this.panel.getByLabel('Phone');
    this.save = this.panel.getByRole('button', { name: 'Save Changes' });
    this.reset = this.panel.getByRole('button', { name: 'Reset' });
    this.accountInfo = this.panel.locator('section', { hasText: 'Account Information' });
    this.error = this.panel.getByRole('alert');
  }

  roleBadge(): Locator {
    return this.panel.locator('[data-role]');
  }

  async uploadAvatar(path: string): Promise<void> {
    await this.avatarInput.setInputFiles(path);
  }
}
