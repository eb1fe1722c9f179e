# syntax=docker/dockerfile:1
#
# swift-aasa origin server image.
#
#   docker build -t aasa .
#   docker run --rm -p 8080:8080 aasa                       # serves the demo brand baked in /srv/aasa
#   docker run --rm -p 8080:8080 -v "$PWD/aasa:/srv/aasa:ro" aasa   # serves your files
#   curl -H 'Host: pastaio.example' http://127.0.0.1:8080/.well-known/apple-app-site-association
#
# Configuration: flags after the image name replace CMD; AASA_* environment
# variables (see config/README.md) work as well, e.g. -e AASA_LOG_FORMAT=json.
#
# Open files: each connection holds one. The server raises its soft limit to
# fit limits.maxConnections (10,000) as far as the hard limit allows; if the
# runtime's hard limit is lower it serves fewer connections and logs a warning.
# Give it room with: docker run --ulimit nofile=20000 ...

ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---------------------------------------------------------------- build stage
FROM ${SWIFT_IMAGE} AS build
# compress-nio links the system zlib.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /build

# Resolve dependencies in their own layer: it is reused while only sources
# change (the release script builds in the same scratch directory).
COPY ./Package.* ./
RUN swift package resolve --scratch-path /scratch

# The release binary, built by the release script with the same flags
# (swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic
# --product aasa, stripped):
# `docker build --build-arg AASA_VERSION=1.2.0 --build-arg AASA_COMMIT=$(git rev-parse --short=12 HEAD) .`
# makes `aasa --version` name the release; a plain build says 0.0.0-dev.
ARG AASA_VERSION=0.0.0-dev
ARG AASA_COMMIT=unknown
COPY . .
RUN AASA_RELEASE_SCRATCH=/scratch scripts/release.sh "${AASA_VERSION}" --commit "${AASA_COMMIT}" --output /dist

# Unpack the release tree (bin/aasa, libexec/aasa/ with the resource bundles
# Bundle.module looks for beside the binary), and add the static backtracer
# so a crash prints every thread's frames (the binary is stripped, so frames
# inside it show as addresses; the Swift runtime's own are named).
WORKDIR /staging
RUN tar -xzf /dist/aasa-*.tar.gz --strip-components=1 \
 && if [ -x /usr/libexec/swift/linux/swift-backtrace-static ]; then \
        cp /usr/libexec/swift/linux/swift-backtrace-static libexec/aasa/; \
    fi \
 && bin/aasa --version

# -------------------------------------------------------------- runtime stage
FROM ${RUNTIME_IMAGE}

# The Swift runtime is linked in; the binary still needs libc, libstdc++,
# libgcc_s and zlib (compress-nio). ca-certificates: outbound checks (aasa
# check / cdn-diff); tzdata: Foundation time zones; curl: the HEALTHCHECK probe.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libstdc++6 zlib1g ca-certificates tzdata curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin aasa

COPY --from=build --chown=root:root /staging/ /opt/aasa/
# The demo brand, owned by root and read-only for the server. Mount your own
# directory over /srv/aasa (read-only is enough: the server never writes).
COPY --chown=root:root aasa/ /srv/aasa/

ENV PATH="/opt/aasa/bin:${PATH}" \
    SWIFT_BACKTRACE=enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/opt/aasa/libexec/aasa/swift-backtrace-static

USER 10001:10001
WORKDIR /srv

VOLUME ["/srv/aasa"]
# 8080: the AASA files. The admin port 8081 (/healthz, /readyz, /metrics,
# /status) stays on the container's loopback, where HEALTHCHECK reaches it.
# For a scraper on the container network, add -e AASA_ADMIN_BIND=0.0.0.0:
# bound beyond loopback it serves only /healthz, /readyz and /metrics, and
# logs a warning; never publish it to the internet.
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8081/healthz"]

# SIGTERM starts the graceful shutdown (shutdown.gracePeriod, 8 s by default,
# under `docker stop`'s 10 s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["aasa"]
CMD ["serve", "--dir", "/srv/aasa", "--port", "8080", "--admin-port", "8081"]
