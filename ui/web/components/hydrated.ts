import { useEffect, useState } from "react";

// Whether the page is live in a browser: false on the server and in the first render in the browser (which
// must draw what the server drew), true from then on. Controls that need JavaScript appear only then.

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
