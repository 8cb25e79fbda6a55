#!/usr/bin/env bun
import { main } from "../src/cli/main.ts";

const code = await main(process.argv.slice(2));
// serve keeps running; every other command ends here.
if (code !== 0 || !process.argv.slice(2).includes("serve")) process.exit(code);
