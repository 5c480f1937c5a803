import type { Locator, Page } from 'playwright-core';

/** The AI Assistant tab (SPEC.md section 2 'AI chat'). */
export class ChatPage {
  readonly input: Locator;
  readonly send: Locator;
  readonly attach: Locator;
  readonly removeImage: Locator;
  readonly preview: Locator;
  readonly conversation: Locator;
  readonly emptyHeading: Locator;
  readonly emptyText: Locator;
  readonly thinking: Locator;
  readonly answers: Locator;
  readonly questions: Locator;
  readonly problem: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByPlaceholder('Ask about equipment issues, troubleshooting steps...', { exact: true });
    this.send = page.getByRole('button', { name: 'Send message', exact: true });
    this.attach = page.getByRole('button', { name: 'Attach image', exact: true });
    this.removeImage = page.getByRole('button', { name: 'Remove image', exact: true });
    this.preview = page.getByRole('img', { name: /^Attached: / });
    this.conversation = page.getByRole('log', { name: 'Conversation' });
    this.emptyHeading = page.getByRole('heading', { name: 'Ask me anything!', exact: true });
    this.emptyText = page.getByText(
      'I can help you troubleshoot equipment, answer technical questions, and provide step-by-step guidance.',
      { exact: true },
    );
    this.thinking = this.conversation.getByRole('status').filter({ hasText: 'Thinking…' });
    this.answers = this.conversation.locator('article[data-role="assistant"]');
    this.questions = this.conversation.locator('article[data-role="user"]');
    this.problem = page.locator('form').getByRole('alert');
  }

  /** Resolves once the chat is on screen and its input usable. */
  async waitUntilReady(): Promise<void> {
    await this.input.waitFor({ state: 'visible' });
  }

  lastAnswer(): Locator {
    return this.answers.last();
  }

  /** The links under an answer, one per cited manual page. */
  sourceLinks(answer: Locator = this.lastAnswer()): Locator {
    return answer.getByRole('list', { name: 'Sources' }).getByRole('link');
  }

  /** In an answer the manuals do not hold: the suggested pages, each a link to its page. */
  suggestionLinks(answer: Locator = this.lastAnswer()): Locator {
    return answer.getByRole('link', { name: /^Suggested page: / });
  }

  /** Under a question's photo: the text the server read from it, with its correction controls. */
  photoReading(question: Locator): Locator {
    return question.getByRole('region', { name: 'Text read from the photo' });
  }

  /** Types the question and presses Enter, as a technician would. */
  async sendUserMessage(text: string): Promise<void> {
    await this.input.fill(text);
    await this.input.press('Enter');
  }

  /** Picks a file through the attach button's file chooser. */
  async attachFile(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    const [chooser] = await Promise.all([this.page.waitForEvent('filechooser'), this.attach.click()]);
    await chooser.setFiles(file);
  }

  /** Waits until the newest answer has finished streaming (or failed). */
  async waitForAnswer(): Promise<Locator> {
    const answer = this.lastAnswer();
    await answer.and(this.page.locator('[data-status="done"], [data-status="error"]')).waitFor();
    return answer;
  }
}
