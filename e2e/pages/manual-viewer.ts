import type { Locator, Page } from 'playwright-core';

/** The in-app manual viewer a cited source opens (issue 16): a side panel or a full-screen sheet. */
export class ManualViewer {
  readonly dialog: Locator;
  readonly title: Locator;
  readonly pageLabel: Locator;
  readonly previous: Locator;
  readonly next: Locator;
  readonly zoomIn: Locator;
  readonly zoomOut: Locator;
  readonly download: Locator;
  readonly close: Locator;
  /** The drawn page: `data-drawn-page` holds its number once canvas and text are on screen. */
  readonly sheet: Locator;
  /** The marked words of the cited passage (text-layer runs of a PDF, or the text of a Word file). */
  readonly marks: Locator;
  readonly text: Locator;
  readonly problem: Locator;
  readonly notFound: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog');
    this.title = this.dialog.getByRole('heading');
    this.pageLabel = this.dialog.getByRole('toolbar', { name: 'Pages and zoom' }).locator('p');
    this.previous = this.dialog.getByRole('button', { name: 'Previous page', exact: true });
    this.next = this.dialog.getByRole('button', { name: 'Next page', exact: true });
    this.zoomIn = this.dialog.getByRole('button', { name: 'Zoom in', exact: true });
    this.zoomOut = this.dialog.getByRole('button', { name: 'Zoom out', exact: true });
    this.download = this.dialog.getByRole('link', { name: 'Download' });
    this.close = this.dialog.getByRole('button', { name: 'Close manual', exact: true });
    this.sheet = this.dialog.locator('[data-drawn-page]');
    this.marks = this.dialog.locator('mark');
    this.text = this.dialog.getByRole('region', { name: 'Manual text' });
    this.problem = this.dialog.getByRole('alert');
    this.notFound = this.dialog.getByRole('status').filter({ hasText: 'The cited passage could not be marked here.' });
  }

  /** Resolves once page `n` is drawn (canvas and text layer swapped in). */
  async waitForPage(n: number, { timeout }: { timeout?: number } = {}): Promise<void> {
    await this.dialog.locator(`[data-drawn-page="${n}"]`).waitFor({ timeout });
  }

  /** The marked words, joined as a reader sees them. */
  async markedText(): Promise<string> {
    const parts = await this.marks.allTextContents();
    return parts.join(' ').replace(/\s+/g, ' ').trim();
  }
}
