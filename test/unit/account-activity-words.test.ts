import { describe, expect, it } from "vitest";
import { AUDITED_EVENT_TYPES } from "../../src/services/security-event-types.ts";
import { describeDevice } from "../../ui/shared/devices.ts";
import { CATALOGUES, translator } from "../../ui/shared/messages/index.ts";
import { activityMessageKey } from "../../ui/web/pages/account/activity.tsx";

// The words of the account page's security activity: a sentence for every event type the audit log holds,
// in every language, and the browser and system a User-Agent names.

describe("the security activity's sentences", () => {
  it("has its own sentence for every audited event type, in every language", () => {
    for (const type of AUDITED_EVENT_TYPES) {
      for (const outcome of ["success", "failure"] as const) {
        const key = activityMessageKey({ type, outcome });
        expect(key, type).not.toBe("activity.unknown");
        for (const catalogue of Object.values(CATALOGUES)) expect(catalogue[key], `${type} ${outcome}`).toMatch(/\.$/);
      }
    }
  });

  it("words a failed sign-in apart from a sign-in, and an unknown type generally", () => {
    const t = translator("en");
    expect(t(activityMessageKey({ type: "sign_in", outcome: "success" }))).toBe("You signed in.");
    expect(t(activityMessageKey({ type: "sign_in", outcome: "failure" }))).toBe(
      "Someone tried to sign in to your account and failed.",
    );
    expect(t(activityMessageKey({ type: "some_future_event", outcome: "success" }))).toBe(
      "Something happened to your account.",
    );
    expect(activityMessageKey({ type: "toString", outcome: "success" })).toBe("activity.unknown");
  });
});

describe("describeDevice", () => {
  it("names the browser and the system of common User-Agents", () => {
    const cases: [string, string | null, string | null][] = [
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Chrome",
        "Windows",
      ],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
        "Edge",
        "Windows",
      ],
      [
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "Safari",
        "macOS",
      ],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        "Safari",
        "iOS",
      ],
      [
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
        "Chrome",
        "Android",
      ],
      ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox", "Linux"],
      [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
        "Chrome",
        "Linux",
      ],
      ["curl/8.5.0", "curl", null],
      ["", null, null],
    ];
    for (const [userAgent, browser, system] of cases)
      expect(describeDevice(userAgent), userAgent).toEqual({ browser, system });
    expect(describeDevice(null)).toEqual({ browser: null, system: null });
  });
});
