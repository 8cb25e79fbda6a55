# syntax=docker/dockerfile:1
# Build: compile the single authd executable (Bun comes from the npm package, as in development).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN node_modules/.bin/bun run build

# Run: a minimal Debian base (the binary links glibc), no shell tools beyond it, non-root.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/dist/authd /usr/local/bin/authd
VOLUME ["/data"]
WORKDIR /data
ENV AUTH_HOST=0.0.0.0 \
    AUTH_PORT=3000 \
    AUTH_DATABASE_URL=sqlite:///data/authd.db
EXPOSE 3000
USER nonroot
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/authd", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/authd"]
CMD ["serve"]
