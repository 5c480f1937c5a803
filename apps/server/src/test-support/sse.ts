/** Reads a server-sent-events body line by line, calling `onLine` as each line arrives. */
export async function readSseLines(
  response: Response,
  onLine: (line: string) => void = () => undefined,
): Promise<string[]> {
  const lines: string[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk, { stream: true });
    const complete = buffer.split('\n');
    buffer = complete.pop()!;
    for (const line of complete) {
      lines.push(line);
      onLine(line);
    }
  }
  return lines;
}

/** The JSON parts of `data: {...}` lines (PLATFORM_API.md 5.2), in order. */
export const dataParts = <T = Record<string, unknown>>(lines: string[]): T[] =>
  lines.filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as T);
