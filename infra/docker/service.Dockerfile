# One image recipe for every Flatship process. SERVICE_DIR picks the workspace
# (gateway, services/auth, services/orders, services/payments,
# services/services-pricing, services/admin, services/label-worker, infra) and
# the image runs its compiled entry with plain node: no TypeScript at run time.
#
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE_DIR=services/orders -t flatship/orders .
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE_DIR=infra -t flatship/infra .
#
# The infra image carries the BTCPay simulator, the database setup and the
# topic creation; its command is chosen where it runs (infra/dist/btcpay.js,
# infra/dist/db-setup.js, infra/dist/create-topics.js).

# Node 22 is an LTS line the project's engines field accepts (^22.13.0).
ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: every workspace compiled once; the same layers serve every image.
FROM ${NODE_IMAGE} AS build
# The npm the project pins (package.json packageManager): it honours allowScripts.
ARG NPM_VERSION=11.19.1
RUN npm install --global --no-audit --no-fund "npm@${NPM_VERSION}"
ENV TURBO_TELEMETRY_DISABLED=1
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund
# Root turbo build: <workspace>/dist/main.js for every runnable, web/dist for the SPA.
RUN npm run build
ARG SERVICE_DIR
RUN test -n "${SERVICE_DIR}" || { echo "build with --build-arg SERVICE_DIR=<workspace>, e.g. services/orders" >&2; exit 1; }
# What the final image keeps: every workspace's manifest (npm needs them all to
# install from the lockfile) and every compiled output (workspaces import each
# other), plus the built web app in the gateway image only.
RUN set -eu; mkdir -p /out/manifests /out/app; \
    cp package.json package-lock.json /out/manifests/; \
    for ws in proto gateway infra web services/*; do \
      [ -f "$ws/package.json" ] || continue; \
      mkdir -p "/out/manifests/$ws" "/out/app/$ws"; \
      cp "$ws/package.json" "/out/manifests/$ws/"; \
      if [ "$ws" != web ]; then cp "$ws/package.json" "/out/app/$ws/"; fi; \
      if [ "$ws" != web ] && [ -d "$ws/dist" ]; then cp -R "$ws/dist" "/out/app/$ws/"; fi; \
    done; \
    test -d "/out/app/${SERVICE_DIR}/dist" || { echo "${SERVICE_DIR} has no dist/ after the build" >&2; exit 1; }; \
    if [ "${SERVICE_DIR}" = gateway ]; then mkdir -p /out/app/web && cp -R web/dist /out/app/web/dist; fi

# ---- deps: production dependencies of the chosen workspace only.
FROM ${NODE_IMAGE} AS deps
ARG NPM_VERSION=11.19.1
RUN npm install --global --no-audit --no-fund "npm@${NPM_VERSION}"
ARG SERVICE_DIR
WORKDIR /app
COPY --from=build /out/manifests/ ./
# No install scripts: no production dependency needs one, and none may run unreviewed.
RUN npm ci --omit=dev --workspace "${SERVICE_DIR}" --no-audit --no-fund --ignore-scripts \
    && npm cache clean --force

# ---- final: compiled JavaScript, production node_modules, a non-root user.
FROM ${NODE_IMAGE}
ARG SERVICE_DIR
# The file under SERVICE_DIR that the container runs; the infra image picks one per job.
ARG SERVICE_ENTRY=dist/main.js
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    SERVICE_DIR=${SERVICE_DIR}
WORKDIR /app
# Orders converts a label whose carrier gave no ZPL with poppler's pdftoppm (rasterised at 203 dpi).
RUN if [ "${SERVICE_DIR}" = services/orders ]; then \
      apt-get update -qq && apt-get install -y -qq --no-install-recommends poppler-utils && rm -rf /var/lib/apt/lists/*; \
    fi
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /out/app/ ./
# One fixed path for CMD; node follows the link, so the entry still finds its
# files relative to its own directory.
RUN ln -s "/app/${SERVICE_DIR}/${SERVICE_ENTRY}" /app/main.js \
    && mkdir -p /var/lib/flatship/files /var/lib/flatship/btcpay \
    && chown -R 1000:1000 /var/lib/flatship
# Label files (orders and label-worker share FILES_DIR) and the simulator's
# invoices live under /var/lib/flatship, owned by the service user so a fresh
# volume mounted there is writable; the rest of the filesystem can be read-only.
# The image's node user by number, so Kubernetes can verify runAsNonRoot.
USER 1000:1000
CMD ["node", "/app/main.js"]
