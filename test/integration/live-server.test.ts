import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peerRequest, type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

describe("live server helper", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd();
  });
  afterAll(() => authd.close());

  it("answers over a real socket from another loopback address", async () => {
    const response = await peerRequest(authd.url, "/api/auth/ok", { from: "127.0.0.2" });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ ok: true });
  });
});
