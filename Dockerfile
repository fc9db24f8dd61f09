# The hub's image: Node 20, plus git and the Docker command-line client, which the
# in-place deployment needs inside the web container (specification, webhook,
# operational prerequisites). The image compiles the app (npm run build) and `npm start`
# runs the compiled build (rebuilt at start when a deploy left it older than the sources).
FROM node:20-bookworm-slim

# docker.io is Debian's Docker package; only its `docker` client is used here (the
# engine is the host's, reached through the mounted /var/run/docker.sock). python3,
# make and g++ let `npm ci` build better-sqlite3 when no prebuilt binary can be
# fetched, here and in the deployment's own `npm ci` inside the running container.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends git docker.io ca-certificates tini python3 make g++ \
 && rm -rf /var/lib/apt/lists/* \
 # The /workspace checkout is mounted from the host and owned by another user; git
 # refuses such a repository unless it is declared safe.
 && git config --system --add safe.directory /workspace \
 && git config --system --add safe.directory /app

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY . .
RUN npm run build

ENV NODE_ENV=production \
    FLASK_ENV=production \
    HOST=0.0.0.0 \
    PORT=5000 \
    WORKING_DIR=/data \
    DEPLOY_WORKSPACE=/workspace \
    DOCKER_HOST=unix:///var/run/docker.sock
RUN mkdir -p /data
VOLUME ["/data"]
EXPOSE 5000

# tini forwards SIGTERM so that the server finishes the requests in flight on `docker stop`.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["npm", "start"]
