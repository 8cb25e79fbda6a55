import { useStdout } from "ink";
import { useEffect, useState } from "react";

export interface TerminalSize {
  columns: number;
  rows: number;
}

const read = (stdout: NodeJS.WriteStream): TerminalSize => ({
  columns: stdout.columns || 100,
  rows: stdout.rows || 24,
});

/** The terminal's size, updated when it is resized (screens re-layout and re-page). */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () => setSize(read(stdout));
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}
