// A stand-in for the browser's XMLHttpRequest in Node tests: sends through fetch and
// fires upload progress the way a browser does (some progress, then all of it).
type Listener = ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;

export class FakeXhr {
  static sent = 0;
  static install() {
    FakeXhr.sent = 0;
    (globalThis as Record<string, unknown>).XMLHttpRequest = FakeXhr;
  }
  static uninstall() {
    delete (globalThis as Record<string, unknown>).XMLHttpRequest;
  }

  status = 0;
  responseText = '';
  upload: { onprogress: Listener } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private method = 'GET';
  private url = '';
  private headers: Record<string, string> = {};

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    FakeXhr.sent += 1;
    this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 2 });
    fetch(this.url, { method: this.method, headers: this.headers, body }).then(
      async (res) => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 2, total: 2 });
        this.status = res.status;
        this.responseText = await res.text();
        this.onload?.();
      },
      () => this.onerror?.(),
    );
  }
}
