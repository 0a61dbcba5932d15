# One image for the API and the worker. The container runs `node` on the
# compiled JavaScript directly (no pnpm, no tsx at run time), so `docker stop`'s
# SIGTERM reaches the process and its exit code is the container's.
#   docker build -t order-ops .
#   docker run order-ops                                            # the API
#   docker run order-ops node --max-semi-space-size=32 --conditions=dist packages/worker/dist/main.js
# Migrations run from the build stage (they need the dev tooling):
#   docker build --target build -t order-ops-build . && docker run order-ops-build pnpm db:migrate

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm i -g pnpm@10
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml turbo.json tsconfig.base.json prisma.config.ts ./
COPY packages/platform/package.json packages/platform/
COPY packages/providers/package.json packages/providers/
COPY packages/domains/package.json packages/domains/
COPY packages/api/package.json packages/api/
COPY packages/worker/package.json packages/worker/
COPY prisma prisma
# pnpm applies these to dependencies at install (patches/README.md).
COPY patches patches
# postinstall runs `prisma generate` into packages/platform/src/generated, which the build compiles.
RUN pnpm install --frozen-lockfile
COPY packages packages
COPY scripts scripts
RUN pnpm build

FROM node:20-bookworm-slim AS production-deps
WORKDIR /app
RUN npm i -g pnpm@10
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/platform/package.json packages/platform/
COPY packages/providers/package.json packages/providers/
COPY packages/domains/package.json packages/domains/
COPY packages/api/package.json packages/api/
COPY packages/worker/package.json packages/worker/
RUN pnpm install --frozen-lockfile --prod --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=production-deps /app/node_modules node_modules
COPY --from=production-deps /app/packages/platform/node_modules packages/platform/node_modules
COPY --from=production-deps /app/packages/providers/node_modules packages/providers/node_modules
COPY --from=production-deps /app/packages/domains/node_modules packages/domains/node_modules
COPY --from=production-deps /app/packages/api/node_modules packages/api/node_modules
COPY --from=production-deps /app/packages/worker/node_modules packages/worker/node_modules
COPY package.json ./
COPY packages/platform/package.json packages/platform/
COPY packages/providers/package.json packages/providers/
COPY packages/domains/package.json packages/domains/
COPY packages/api/package.json packages/api/
COPY packages/worker/package.json packages/worker/
COPY --from=build /app/packages/platform/dist packages/platform/dist
COPY --from=build /app/packages/providers/dist packages/providers/dist
COPY --from=build /app/packages/domains/dist packages/domains/dist
COPY --from=build /app/packages/api/dist packages/api/dist
# The console's templates and browser modules (not compiled; read from beside dist/).
COPY packages/api/console packages/api/console
COPY --from=build /app/packages/worker/dist packages/worker/dist
USER node
EXPOSE 3000
CMD ["node", "--conditions=dist", "packages/api/dist/main.js"]
