# syntax=docker/dockerfile:1
# Build: compile the single authd executable (Bun comes from the npm package, as in development).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# /data belongs to the runtime user (65532, distroless's nonroot) in the image itself, so a new named
# volume starts out writable by it whatever builder made the image (BuildKit, the legacy builder, buildah).
RUN mkdir -p /out/data && chown 65532:65532 /out/data && chmod 0700 /out/data

# Run: a minimal Debian base (the binary links glibc), no shell, non-root.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/dist/authd /usr/local/bin/authd
COPY --from=build --chown=65532:65532 /out/data /data
VOLUME ["/data"]
WORKDIR /data
ENV AUTH_HOST=0.0.0.0 \
    AUTH_PORT=3000 \
    AUTH_DATABASE_URL=sqlite:///data/authd.db
EXPOSE 3000
USER 65532:65532
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/authd", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/authd"]
CMD ["serve"]
