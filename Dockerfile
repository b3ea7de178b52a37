# gridcast as a container: `docker build -t gridcast .` then
# `docker run -p 8000:8000 -v gridcast-data:/data gridcast` (see docs/README-dashboard-container.md).
# Every production dependency is plain JavaScript or WebAssembly, so the small Alpine base works.

# Build: compile TypeScript, then keep the production dependencies only.
FROM node:20-alpine AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: only tsx's esbuild has one, and the build needs tsc alone.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# Of ECharts the dashboard serves one built file (src/api/dashboard.ts); the package's sources
# and other builds (~60 MB), and zrender (bundled into that file), are not needed at run time.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund --ignore-scripts \
 && find node_modules/echarts -mindepth 1 -maxdepth 1 ! -name package.json ! -name dist -exec rm -rf {} + \
 && find node_modules/echarts/dist -mindepth 1 ! -name echarts.min.js -exec rm -rf {} + \
 && rm -rf node_modules/zrender

# Run: the compiled code, its production dependencies and the files it reads, as user `node`.
FROM node:20-alpine
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    GRIDCAST_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY assets ./assets
COPY web ./web
RUN mkdir -p /data && chown node:node /data
USER node
# The embedded store (PGlite) lives here; unused when DATABASE_URL points at PostgreSQL.
VOLUME ["/data"]
EXPOSE 8000
# Ready = the database answers and the compute workers are warm (GET /readyz). The base image has no curl: node's fetch does it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/gridcast.js", "serve"]
