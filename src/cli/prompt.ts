// Interactive input on a terminal: a hidden password prompt and a yes/no confirmation.

/** Read one line from a terminal without echoing it. Ctrl-C aborts. */
export function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString("utf8")) {
        if (char === "\r" || char === "\n") return finish();
        if (char === "\u0003" || char === "\u0004") return finish(new PromptAborted());
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else if (char >= " ") value += char;
      }
    };
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}

/** Ask a yes/no question on the terminal; anything but y/yes is no. */
export function promptConfirm(question: string): Promise<boolean> {
  const stdin = process.stdin;
  process.stderr.write(`${question} [y/N] `);
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      stdin.off("data", onData);
      stdin.pause();
      resolve(/^\s*y(es)?\s*$/i.test(chunk.toString("utf8")));
    };
    stdin.resume();
    stdin.on("data", onData);
  });
}

export class PromptAborted extends Error {
  constructor() {
    super("aborted");
    this.name = "PromptAborted";
  }
}

/** All of stdin (for --password-stdin), without the final line break. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}
