# One image for the api, the worker and migrations (docker-compose.yml picks the command).
# Build stage: every dependency, then `npm run build` (type check + plain JavaScript in dist/).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Final stage: production dependencies only, the compiled code, run as the unprivileged node user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
# NODE_FLAGS in libs/platform/src/runtime/launcher.ts, for whichever command compose or you give the image.
ENV NODE_OPTIONS=--max-semi-space-size=64
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# /health/live answers while the process runs; readiness (database, Redis, migrations, worker) is /health/ready.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node directly (not npm), so SIGTERM reaches the process; run it with an init (`docker run --init`,
# or `init: true` in compose) so signals are forwarded and zombies reaped.
CMD ["node", "dist/apps/api/src/main.js"]
