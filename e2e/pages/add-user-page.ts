import type { Locator, Page } from 'playwright-core';

export type RoleLabel = 'Admin' | 'Manager' | 'Technician';

/** The Add User tab. */
export class AddUserPage {
  readonly panel: Locator;
  readonly email: Locator;
  readonly displayName: Locator;
  readonly phone: Locator;
  readonly role: Locator;
  readonly submit: Locator;
  readonly clear: Locator;
  readonly error: Locator;
  /** Shown to anyone but an admin, above the form. */
  readonly adminOnlyNotice: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('main', { name: 'Add User' });
    this.email = this.panel.getByLabel('Email', { exact: true });
    this.displayName = this.panel.getByLabel('Display Name');
    this.phone = this.panel.getByLabel('Phone');
    this.role = this.panel.getByRole('combobox', { name: 'Role' });
    this.submit = this.panel.getByRole('button', { name: 'Add User', exact: true });
    this.clear = this.panel.getByRole('button', { name: 'Clear' });
    this.error = this.panel.getByRole('alert');
    this.adminOnlyNotice = this.panel.getByRole('note');
  }

  /** The role select's options as shown (label and description), read with the list open, then closed again. */
  async roleOptions(): Promise<string[]> {
    await this.role.click();
    const options = this.page.getByRole('option');
    await options.first().waitFor();
    const texts = (await options.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    await this.page.keyboard.press('Escape');
    await options.first().waitFor({ state: 'detached' });
    return texts;
  }

  async fill({
    email,
    displayName,
    phone,
    role,
  }: {
    email: string;
    displayName: string;
    phone?: string;
    role?: RoleLabel;
  }): Promise<void> {
    await this.email.fill(email);
    await this.displayName.fill(displayName);
    if (phone !== undefined) await this.phone.fill(phone);
    if (role) {
      await this.role.click();
      await this.page.getByRole('option', { name: new RegExp(`^${role}\\b`) }).click();
    }
  }
}
