import http from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on loopback: records every request (headers and raw body) and answers as the test
// says for each attempt of each message: ok (204), fail (500), hang (no answer until closed) or a redirect.

export type Answer = "ok" | "fail" | "hang" | { redirect: string };

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** 1 for the first request carrying this webhook-id, 2 for the second, … */
  attempt: number;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Distinct webhook-ids received. */
  ids(): Set<string>;
  /** Requests answered "hang" whose connection the sender has not closed yet (it is still waiting). */
  waiting(): number;
  close(): Promise<void>;
}

export async function startReceiver(answer: (hook: ReceivedWebhook) => Answer = () => "ok"): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const id = String(request.headers["webhook-id"] ?? "");
      const hook: ReceivedWebhook = {
        id,
        timestamp: String(request.headers["webhook-timestamp"] ?? ""),
        signature: String(request.headers["webhook-signature"] ?? ""),
        body,
        attempt: received.filter((r) => r.id === id).length + 1,
      };
      received.push(hook);
      const reply = answer(hook);
      if (reply === "hang") {
        hanging.add(response);
        response.on("close", () => hanging.delete(response));
      } else if (reply === "ok") response.writeHead(204).end();
      else if (reply === "fail") response.writeHead(500).end("boom");
      else response.writeHead(302, { location: reply.redirect }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    ids: () => new Set(received.map((r) => r.id)),
    waiting: () => hanging.size,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
