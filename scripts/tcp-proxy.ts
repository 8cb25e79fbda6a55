import { connect, createServer, type Server, type Socket } from "node:net";

// A TCP proxy a test or a bench puts in front of Postgres or Redis and then cuts, so outages are simulated without
// touching the machine's real servers. Two ways to fail: refuse (every connection dropped, new ones refused
// at once, as a stopped server or a closed port) and blackhole (connections accepted and held, nothing
// forwarded either way, as a network that drops packets: only the client's own timeout ends the wait).

export interface TcpProxy {
  port: number;
  /** Connections accepted since the start (refused and blackholed ones included). */
  readonly connections: number;
  /** Drop every open connection and refuse new ones. */
  cut(): void;
  /** Stop forwarding on open connections, and accept new ones without ever answering. */
  blackhole(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let mode: "pass" | "refuse" | "blackhole" = "pass";
  let connections = 0;
  const server: Server = createServer((client) => {
    connections += 1;
    if (mode === "refuse") return client.destroy();
    open.add(client);
    client.on("error", () => {});
    client.on("close", () => open.delete(client));
    if (mode === "blackhole") return;
    const upstream = connect(target.port, target.host);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("close", drop);
    upstream.on("error", drop).on("close", drop);
    // Chunk by chunk rather than pipe(), so that a blackhole stops an open connection mid-way.
    client.on("data", (chunk) => {
      if (mode === "pass") upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (mode === "pass") client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const destroyAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };
  return {
    port: (server.address() as { port: number }).port,
    get connections() {
      return connections;
    },
    cut() {
      mode = "refuse";
      destroyAll();
    },
    blackhole() {
      mode = "blackhole";
    },
    restore() {
      // Connections held by a blackhole stay dead, as after a real partition: clients must reconnect.
      if (mode === "blackhole") destroyAll();
      mode = "pass";
    },
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}

/** The same URL, pointed at the proxy. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(proxy.port);
  return parsed.toString();
}
