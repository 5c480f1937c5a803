'use strict';

/**
 * autocannon setupRequest for bench/rest/run.ts. In workers mode autocannon loads it by
 * path with require(), hence CommonJS. Every request asks for a random user's jobs:
 * `benchPath` holds `{user}`, `benchUsers` the seeded user ids.
 */
module.exports = function setupRequest(request) {
  const users = request.benchUsers;
  const user = users[Math.floor(Math.random() * users.length)];
  return { ...request, path: request.benchPath.replace('{user}', encodeURIComponent(user)) };
};
