# Herald in one image. Its command is a `herald` command (apps/server/bin/herald.mjs):
#   start    API, web app and job worker in one process (the default)
#   api      only the HTTP API        worker   only the job worker
#   migrate  apply the database migrations and exit
#   doctor [--live]  check each network's setup
#   admin grant <email>, admin revoke <email>  give or take platform operator rights
# Install, upgrade, backup and scaling: docs/operations.md.
#
#   docker build -t herald .
#
# The base is Debian bookworm with Node.js 24 and npm in /usr/local, as the official node image
# is. Where no image registry can be reached, scripts/build-base-image.sh makes one from a Debian
# mirror and the npm registry: `docker build --build-arg BASE_IMAGE=herald-base:bookworm …`.
ARG BASE_IMAGE=node:24-bookworm-slim
# Behind a TLS-inspecting proxy, the npm registry's certificate is signed by the proxy's own CA:
# pass its certificate(s), PEM text, here. Only the build stages trust it; the image does not.
ARG EXTRA_CA_CERTS=""

# ---- build: every dependency, then the web app and the server bundle ----
FROM ${BASE_IMAGE} AS build
ARG EXTRA_CA_CERTS
WORKDIR /src
# The manifests alone first, so this layer (the slow download) is reused until they change.
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/client/package.json packages/client/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN if [ -n "$EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" >/tmp/extra-ca.pem && export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; \
    fi \
  && npm ci --no-audit --no-fund --loglevel=warn
COPY . .
RUN npm run build

# ---- deps: what the built server loads from node_modules at run time ----
# The server's production dependencies only (not the web app's, the tests' or the tools'); most
# of them are in the bundle already, the others it loads by import() (apps/server/scripts/build.mjs).
FROM ${BASE_IMAGE} AS deps
ARG EXTRA_CA_CERTS
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/client/package.json packages/client/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN if [ -n "$EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" >/tmp/extra-ca.pem && export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; \
    fi \
  && npm ci --omit=dev --workspace @herald/server --no-audit --no-fund --loglevel=warn \
  && mkdir -p apps/server/node_modules \
  && rm -rf /root/.npm

# ---- runtime ----
FROM ${BASE_IMAGE} AS runtime
# ffmpeg/ffprobe make video thumbnails and measure videos (without them Herald falls back to
# its own MP4/WebM reader and a poster); ca-certificates for the tools that use the system's.
# Debian's ffmpeg depends, through libavdevice's OpenGL output, on Mesa's GPU drivers and the LLVM
# they compile shaders with (about 160 MB); ffmpeg only loads them to draw on a screen, which
# Herald never asks of it, so dpkg leaves those files out.
RUN printf '%s\n' 'path-exclude /usr/lib/*/dri/*' 'path-exclude /usr/lib/*/libLLVM-*' \
      'path-exclude /usr/lib/*/libz3.so*' >/etc/dpkg/dpkg.cfg.d/herald-no-gpu-drivers \
  && apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg ca-certificates \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
  && ffmpeg -hide_banner -version >/dev/null && ffprobe -hide_banner -version >/dev/null \
  && groupadd --gid 10001 herald \
  && useradd --uid 10001 --gid herald --no-create-home --home-dir /data --shell /usr/sbin/nologin herald \
  && mkdir -p /data \
  && chown herald:herald /data

WORKDIR /app
COPY --from=deps /src/node_modules ./node_modules
COPY --from=deps /src/apps/server/node_modules ./apps/server/node_modules
COPY --from=build /src/package.json ./
COPY --from=build /src/apps/server/package.json ./apps/server/
COPY --from=build /src/apps/server/bin ./apps/server/bin
COPY --from=build /src/apps/server/drizzle ./apps/server/drizzle
COPY --from=build /src/apps/server/dist ./apps/server/dist
COPY --from=build /src/apps/web/dist ./apps/web/dist

# Production unless told otherwise: the development sign-in (anyone, any address) and the
# network sandboxes are refused, and the secrets must be set (docs/operations.md).
# HERALD_DATA_DIR holds upload temp files, and the media and embedded database when they are
# not elsewhere (MEDIA_STORAGE=s3, DATABASE_URL): mount a volume there.
ENV NODE_ENV=production \
    HERALD_DATA_DIR=/data \
    WEB_DIST_DIR=/app/apps/web/dist \
    PORT=3000
# The code stays root's and read-only to the server; it writes only in /data and /tmp.
USER herald
EXPOSE 3000
# healthz, not readyz: a process finishing its work after SIGTERM answers 503 on readyz, and
# must not be restarted for it. `herald worker` serves no HTTP: turn the check off for it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "/app/apps/server/bin/healthcheck.mjs"]
ENTRYPOINT ["node", "/app/apps/server/bin/herald.mjs"]
CMD ["start"]
