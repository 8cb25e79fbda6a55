// A session's device in plain words, read from the User-Agent header it was started with: the browser and
// the operating system, by name ("Firefox", "Windows"), or null where the header does not say. Only the
// common names: a list of devices should read "Chrome on Android", not a version string. Browsers send
// many names at once (Edge says Chrome and Safari too), so the order of the checks matters.

export interface Device {
  browser: string | null;
  os: string | null;
}

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\bYaBrowser\//, "Yandex Browser"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bcurl\//, "curl"],
  [/\bWget\//, "Wget"],
  [/\bPostmanRuntime\//, "Postman"],
  [/\bokhttp\//, "OkHttp"],
  [/\bBun\//, "Bun"],
  [/\bnode(?:-fetch)?\b|\bundici\b/i, "Node.js"],
  [/\bpython-requests\/|\bPython-urllib\//, "Python"],
  [/\bGo-http-client\//, "Go"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows (?:NT|Phone)\b|\bWin64\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const firstMatch = (patterns: readonly [RegExp, string][], text: string): string | null =>
  patterns.find(([pattern]) => pattern.test(text))?.[1] ?? null;

export function parseUserAgent(userAgent: string | null | undefined): Device {
  const text = (userAgent ?? "").slice(0, 512);
  if (!text.trim()) return { browser: null, os: null };
  return { browser: firstMatch(BROWSERS, text), os: firstMatch(SYSTEMS, text) };
}
