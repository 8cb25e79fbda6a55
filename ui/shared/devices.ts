// What a User-Agent header says of the device, in the few words a person recognises ("Firefox", "Windows"):
// the browser and the operating system, each null when the header does not name one authd knows. Names
// of browsers and systems are proper names, the same in every language; the UIs put them into words.

export interface DeviceDescription {
  browser: string | null;
  system: string | null;
}

// The first match wins: Edge and Opera also call themselves Chrome, Chrome calls itself Safari.
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(HeadlessChrome|Chrome|Chromium|CriOS)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bWindows\b/, "Windows"],
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\b(Macintosh|Mac OS X)\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const firstMatch = (userAgent: string, table: readonly [RegExp, string][]): string | null =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

export function describeDevice(userAgent: string | null | undefined): DeviceDescription {
  const header = (userAgent ?? "").slice(0, 512);
  return { browser: firstMatch(header, BROWSERS), system: firstMatch(header, SYSTEMS) };
}
