import type { Locator, Page } from 'playwright-core';

export type Priority = 'Low' | 'Medium' | 'High';
export type StatusLabel = 'Pending' | 'In Progress' | 'Completed';

/** The My Jobs tab. */
export class JobsPage {
  readonly panel: Locator;
  readonly addJob: Locator;
  readonly form: Locator;
  readonly jobs: Locator;
  readonly emptyState: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('main', { name: 'My Jobs' });
    this.addJob = this.panel.getByRole('button', { name: 'Add Job' });
    this.form = this.panel.getByRole('form', { name: 'Create New Job' });
    this.jobs = this.panel.getByTestId('job');
    this.emptyState = this.panel.getByText('No jobs yet');
  }

  job(title: string): Locator {
    return this.jobs.filter({ has: this.page.getByRole('heading', { name: title, exact: true }) });
  }

  async createJob({
    title,
    description,
    priority,
  }: {
    title: string;
    description: string;
    priority?: Priority;
  }): Promise<void> {
    if (!(await this.form.isVisible())) await this.addJob.click();
    await this.form.getByLabel('Job Title').fill(title);
    await this.form.getByLabel('Description').fill(description);
    if (priority) {
      await this.form.getByRole('combobox', { name: 'Priority' }).click();
      await this.page.getByRole('option', { name: priority, exact: true }).click();
    }
    await this.form.getByRole('button', { name: 'Create Job' }).click();
    await this.job(title).waitFor();
  }

  statusSelect(title: string): Locator {
    return this.panel.getByRole('combobox', { name: `Status of ${title}` });
  }

  /** Picks a status from the job's dropdown and waits for the reloaded list to show it. */
  async setStatus(title: string, label: StatusLabel): Promise<void> {
    await this.statusSelect(title).click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
    const value = label.toLowerCase().replace(' ', '-');
    await this.panel.locator(`[data-testid="job"][data-status="${value}"]`, { hasText: title }).waitFor();
  }

  titles(): Promise<string[]> {
    return this.jobs.getByRole('heading').allTextContents();
  }
}
