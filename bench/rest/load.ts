/**
 * The load generator of bench/rest/run.ts, in a child process of its own so that neither its
 * event loop nor its CPU time mixes with the servers' (run.ts measures the servers' process
 * CPU per request). Takes one job per IPC message, answers with autocannon's result.
 */
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  /** A path with `{user}` in it, replaced by a random one of `users` for every request. */
  pathTemplate: string;
  users: string[];
}

process.on('message', (job: LoadJob) => {
  const { url, connections, duration, headers, pathTemplate, users } = job;
  const setupRequest = (request: autocannon.Request) => {
    const user = users[Math.floor(Math.random() * users.length)]!;
    return { ...request, path: pathTemplate.replace('{user}', encodeURIComponent(user)) };
  };
  Promise.resolve(autocannon({ url, connections, duration, headers, requests: [{ method: 'GET', setupRequest }] }))
    .then((result) => process.send!({ result }))
    .catch((error: unknown) => process.send!({ error: String(error) }));
});
