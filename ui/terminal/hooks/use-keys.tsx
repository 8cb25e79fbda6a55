import { type Key, useInput } from "ink";
import { createContext, type ReactNode, useCallback, useContext, useLayoutEffect, useRef } from "react";

// One keyboard subscription for the whole app; screens and prompts register handlers on a stack and the
// newest active one gets each key. Registration happens while the frame is committed, so a key pressed
// the moment a screen appears is never lost between two screens.

export type KeyHandler = (input: string, key: Key) => void;

const HandlerStack = createContext<{ current: { handle: KeyHandler }[] } | null>(null);

export function KeyboardProvider({ children }: { children: ReactNode }) {
  const stack = useRef<{ handle: KeyHandler }[]>([]);
  const dispatch = useCallback(
    (input: string, key: Key) => stack.current[stack.current.length - 1]?.handle(input, key),
    [],
  );
  useInput(dispatch);
  return <HandlerStack.Provider value={stack}>{children}</HandlerStack.Provider>;
}

/** Receive keys while active and the newest registered handler (a prompt above its screen wins). */
export function useKeys(handler: KeyHandler, options: { isActive?: boolean } = {}): void {
  const stack = useContext(HandlerStack);
  if (!stack) throw new Error("useKeys needs a KeyboardProvider above it");
  const latest = useRef(handler);
  latest.current = handler;
  const active = options.isActive !== false;
  useLayoutEffect(() => {
    if (!active) return;
    const entry = { handle: (input: string, key: Key) => latest.current(input, key) };
    stack.current.push(entry);
    return () => {
      stack.current = stack.current.filter((e) => e !== entry);
    };
  }, [active, stack]);
}
