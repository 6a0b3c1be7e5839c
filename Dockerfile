# syntax=docker/dockerfile:1
ARG BUILD_FROM=ghcr.io/home-assistant/base:3.23

# Build stage: full dependencies, TypeScript compile, the program bundled. The
# workspace packages (packages/: the simulator and the model fakes) are not in
# the build context, so npm ci links nothing for them and the image holds neither.
FROM ${BUILD_FROM} AS build
RUN apk add --no-cache nodejs npm
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
COPY scripts/bundle-program.mjs scripts/build-web.mjs ./scripts/
RUN npm run build:product && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: Node, production dependencies and the compiled program only.
FROM ${BUILD_FROM}
RUN apk add --no-cache nodejs
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY rootfs /

HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD wget -q -O /dev/null http://127.0.0.1:8808/livez || exit 1

LABEL io.hass.type="addon" io.hass.arch="aarch64|amd64" \
  org.opencontainers.image.title="HA Agent" \
  org.opencontainers.image.description="AI agent for Home Assistant, served over MCP" \
  org.opencontainers.image.licenses="Apache-2.0"
