// The upload transport used when the caller wants progress: fetch cannot report upload
// progress, XMLHttpRequest can (PLATFORM_API.md 4.1). Same credentials and same one
// refresh-and-retry after a 401 as every other call (section 1.6).
import { errorFromResponse } from '../errors.js';

export interface XhrUploadRequest {
  url: string;
  form: FormData;
  token: string | null | undefined;
  onProgress: (percent: number) => void;
}

interface XhrAnswer {
  status: number;
  body: unknown;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text ? { message: text } : {};
  }
}

function sendOnce({ url, form, token, onProgress }: XhrUploadRequest): Promise<XhrAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, body: parseBody(xhr.responseText) });
    xhr.onerror = () => reject(new Error('The upload could not reach the server'));
    xhr.onabort = () => reject(new Error('The upload was aborted'));
    xhr.send(form);
  });
}

/** Resolves with the decoded success body; throws the SDK's error for a non-2xx answer. */
export async function uploadWithProgress(
  request: XhrUploadRequest,
  refresh?: () => Promise<string | null | undefined>,
): Promise<unknown> {
  let answer = await sendOnce(request);
  if (answer.status === 401 && request.token && refresh) {
    const fresh = await refresh();
    if (fresh) answer = await sendOnce({ ...request, token: fresh });
  }
  if (answer.status < 200 || answer.status >= 300) throw errorFromResponse(answer.status, answer.body);
  return answer.body;
}
