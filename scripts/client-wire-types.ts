// bun scripts/client-wire-types.ts → src/client/wire.ts: the client's entity types, written from the
// server's wire schemas (src/wire/). A test fails when the file is stale.
import { writeFileSync } from "node:fs";
import { renderClientWireTypes } from "../src/wire/typescript.ts";

const target = new URL("../src/client/wire.ts", import.meta.url);
writeFileSync(target, renderClientWireTypes());
console.log(`wrote ${target.pathname}`);
