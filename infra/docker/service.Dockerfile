# One image recipe for every service: the monorepo with its dependencies, run
# the same way the embedded launcher runs a service. SERVICE_DIR picks which.
FROM node:20-bookworm-slim
WORKDIR /app
COPY . .
# Development dependencies included: services run their TypeScript through tsx.
RUN npm ci --no-audit --no-fund
ARG SERVICE_DIR
ARG BUILD_WEB=false
# Only the gateway image serves the SPA, so only it pays for the web build.
RUN if [ "$BUILD_WEB" = "true" ]; then npm run build -w web; fi
ENV SERVICE_DIR=${SERVICE_DIR} HOST=0.0.0.0 NODE_ENV=production
USER node
CMD ["sh", "-c", "exec node --import tsx \"$SERVICE_DIR/src/main.ts\""]
