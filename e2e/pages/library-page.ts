import type { Locator, Page } from 'playwright-core';

export type FileInput = { name: string; mimeType: string; buffer: Buffer };

/** The Manuals tab (SPEC.md section 2 'Manual Library') and its dialogs. */
export class LibraryPage {
  readonly panel: Locator;
  readonly count: Locator;
  readonly newVersion: Locator;
  readonly newTag: Locator;
  readonly uploadManual: Locator;
  readonly manageUsers: Locator;
  readonly search: Locator;
  readonly versionFilter: Locator;
  readonly tagFilter: Locator;
  readonly manuals: Locator;
  readonly emptyState: Locator;
  /** The open dialog (Radix renders it outside the tab panel). */
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('main', { name: 'Manuals' });
    this.count = this.panel.getByText(/^\d+ manual\(s\) available$/);
    this.newVersion = this.panel.getByRole('button', { name: 'New Version', exact: true });
    this.newTag = this.panel.getByRole('button', { name: 'New Tag', exact: true });
    this.uploadManual = this.panel.getByRole('button', { name: 'Upload Manual', exact: true });
    this.manageUsers = this.panel.getByRole('button', { name: 'Manage Users', exact: true });
    this.search = this.panel.getByPlaceholder('Search manuals...', { exact: true });
    this.versionFilter = this.panel.getByRole('combobox', { name: 'Version' });
    this.tagFilter = this.panel.getByRole('group', { name: 'Filter by tag' });
    this.manuals = this.panel.getByTestId('manual');
    this.emptyState = this.panel.getByRole('heading', { name: 'No manuals found' });
    this.dialog = page.getByRole('dialog');
  }

  manual(title: string): Locator {
    return this.manuals.filter({ has: this.page.getByRole('heading', { name: title, exact: true }) });
  }

  titles(): Promise<string[]> {
    return this.manuals.getByRole('heading').allTextContents();
  }

  /** Picks an option of a Radix select (its list opens in a portal). */
  async choose(select: Locator, option: string): Promise<void> {
    await select.click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  async createVersion(name: string, year: string): Promise<void> {
    await this.newVersion.click();
    await this.dialog.getByLabel('Version Name').fill(name);
    await this.dialog.getByLabel('Release Year').fill(year);
    await this.dialog.getByRole('button', { name: 'Create Version' }).click();
    await this.dialog.waitFor({ state: 'hidden' });
  }

  async createTag(name: string): Promise<void> {
    await this.newTag.click();
    await this.dialog.getByLabel('Tag Name').fill(name);
    await this.dialog.getByRole('button', { name: 'Create Tag' }).click();
    await this.dialog.waitFor({ state: 'hidden' });
  }

  async openUpload(mode: 'Single File' | 'Bulk Upload'): Promise<void> {
    await this.uploadManual.click();
    await this.dialog.getByRole('button', { name: new RegExp(`^${mode}`) }).click();
    await this.dialog
      .getByRole('heading', { name: mode === 'Single File' ? 'Upload Single Manual' : 'Bulk Upload Manuals' })
      .waitFor();
  }

  /** Single upload up to the review dialog, which it waits for. */
  async uploadSingle({ file, version }: { file: FileInput; version: string }): Promise<void> {
    await this.openUpload('Single File');
    await this.choose(this.dialog.getByRole('combobox', { name: 'Release Version' }), version);
    await this.dialog.getByLabel('Manual File').setInputFiles(file);
    await this.dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await this.review.waitFor();
  }

  get review(): Locator {
    return this.dialog.getByRole('heading', { name: 'Review Extracted Metadata' });
  }

  field(label: 'Title' | 'Technology' | 'Publication Date' | 'Part Number'): Locator {
    return this.dialog.getByLabel(label, { exact: true });
  }

  async bulkUpload({ files, version }: { files: FileInput[]; version: string }): Promise<void> {
    await this.openUpload('Bulk Upload');
    await this.choose(this.dialog.getByRole('combobox', { name: 'Release Version' }), version);
    await this.dialog.getByLabel('Manual Files').setInputFiles(files);
    await this.dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  }

  bulkRows(): Locator {
    return this.dialog.getByTestId('bulk-file');
  }
}
