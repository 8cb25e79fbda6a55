import http from "node:http";
import { createContext } from "../../src/context.ts";
import { registerFeatures } from "../../src/features.ts";
import { silentLogger } from "../../src/logger.ts";
import { startServer } from "../../src/server.ts";
import { createTestContext, type TestContext, type TestContextOptions } from "./context.ts";

// A real authd on an ephemeral port: requests cross real sockets, so the daemon sees a real peer
// address. `peerRequest` can bind the client side to another loopback address (127.0.0.2, …) to act as
// a different machine.

export interface RunningAuthd {
  t: TestContext;
  /** http://127.0.0.1:PORT (http://[::1]:PORT when listening on ::1); on "::" both families connect. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface StartAuthdOptions extends TestContextOptions {
  /** Listen address: 127.0.0.1 (default), "::" (dual stack: IPv4 peers appear as ::ffff:a.b.c.d) or "::1". */
  host?: string;
}

export async function startAuthd(options: StartAuthdOptions = {}): Promise<RunningAuthd> {
  const { host = "127.0.0.1", ...contextOptions } = options;
  const t = await createTestContext({ realTime: true, ...contextOptions });
  const running = startServer(t.ctx, { port: 0, host });
  const port = running.server.port ?? 0;
  return {
    t,
    url: host === "::1" ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`,
    port,
    async close() {
      // shutdown() closes the context too; close() then only removes the temporary database.
      await running.shutdown();
      await t.close().catch(() => {});
    },
  };
}

export interface PeerResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface PeerRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (with content-type application/json unless given). */
  body?: unknown;
  /** Local address to bind the client socket to, e.g. "127.0.0.2" or "::1" (default: the kernel's choice). */
  from?: string;
}

/** One HTTP request over a fresh socket, optionally from a chosen loopback address. */
export function peerRequest(baseURL: string, path: string, options: PeerRequestOptions = {}): Promise<PeerResponse> {
  const url = new URL(path, baseURL);
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (typeof options.body !== "string" && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
      headers["content-type"] = "application/json";
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? (payload === undefined ? "GET" : "POST"),
        headers,
        localAddress: options.from,
        agent: false,
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
      },
    );
    request.on("error", reject);
    if (payload !== undefined) request.write(payload);
    request.end();
  });
}

/** Another daemon on the same database, Redis and configuration as `first` (the way a deployment scales out). */
export async function startSecondAuthd(first: RunningAuthd): Promise<{ url: string; close(): Promise<void> }> {
  registerFeatures();
  const ctx = await createContext(first.t.ctx.config, { logger: silentLogger, now: first.t.ctx.now });
  const running = startServer(ctx, { port: 0, host: "127.0.0.1" });
  return { url: `http://127.0.0.1:${running.server.port ?? 0}`, close: () => running.shutdown() };
}
