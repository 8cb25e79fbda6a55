// bun run build → dist/authd: one self-contained executable (Bun runtime, code, migrations, UI assets).
// `bun scripts/build.ts --outfile PATH` builds elsewhere (tests build their own copy, so parallel test
// files never race on dist/).

const outfileFlag = process.argv.indexOf("--outfile");
const outfile = outfileFlag > 0 ? process.argv[outfileFlag + 1] : "dist/authd";
const root = new URL("..", import.meta.url).pathname;

import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

mkdirSync(dirname(outfile), { recursive: true });
const started = performance.now();
const result = await Bun.build({
  entrypoints: [`${root}bin/authd.ts`],
  compile: { outfile },
  minify: true,
  sourcemap: "linked",
  external: ["pg-native"],
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  plugins: [
    {
      // Ink loads react-devtools-core only when DEV=true. It is not installed, and an external import would
      // make the binary fail at start-up, so the bundle gets an inert stand-in (the binary stays self-contained).
      name: "ink-without-devtools",
      setup(build) {
        build.onResolve({ filter: /^react-devtools-core$/ }, () => ({
          path: "react-devtools-core",
          namespace: "authd-stub",
        }));
        build.onLoad({ filter: /.*/, namespace: "authd-stub" }, () => ({
          contents: "export default { initialize() {}, connectToDevTools() {} };",
          loader: "js",
        }));
      },
    },
  ],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
