import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The example imports authd/react exactly as an app would; here that name points at the built client
// (npm run build:client → clients/js/dist, or AUTHD_CLIENT_DIR). No React plugin is needed: oxc compiles JSX.
const here = dirname(fileURLToPath(import.meta.url));
const clientDir = process.env.AUTHD_CLIENT_DIR ?? resolve(here, "../../clients/js/dist");

export default defineConfig({
  root: here,
  resolve: {
    // One React, resolved from this project, also for a client built outside it (AUTHD_CLIENT_DIR).
    dedupe: ["react", "react-dom"],
    alias: [
      { find: /^authd\/client$/, replacement: resolve(clientDir, "index.js") },
      { find: /^authd\/react$/, replacement: resolve(clientDir, "react.js") },
    ],
  },
  oxc: { jsx: { runtime: "automatic" } },
  build: { outDir: process.env.AUTHD_EXAMPLE_OUT_DIR ?? resolve(here, "dist"), emptyOutDir: true },
});
