import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { describeIssue, FORMAT, V1Header } from "../format.ts";
import type { RecordStream, SourceRecord } from "../run.ts";

// Reading JSON Lines files a line at a time (memory stays flat however many users a file holds), and the
// authd.v1 file: its header line, then a user a line.

/** A source that cannot be read at all (a missing file, a wrong header): one line for the operator. */
export class ImportSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportSourceError";
  }
}

/** The lines of a file with their numbers (from 1), read as a stream; blank lines skipped. */
export async function* readLines(path: string): AsyncGenerator<{ number: number; text: string }> {
  const input = createReadStream(path, { encoding: "utf8" });
  const opened = new Promise<void>((resolve, reject) => {
    input.once("open", () => resolve());
    input.once("error", reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new ImportSourceError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let number = 0;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    number += 1;
    if (text.trim() !== "") yield { number, text };
  }
}

/** Each line parsed as JSON; a line that is not JSON is a problem of that record. */
export async function* jsonLines(lines: AsyncIterable<{ number: number; text: string }>): AsyncGenerator<SourceRecord> {
  for await (const { number, text } of lines) {
    const position = `line ${number}`;
    try {
      yield { position, record: JSON.parse(text) as unknown };
    } catch {
      yield { position, problem: "not a JSON object" };
    }
  }
}

/** Read the header line of an authd.v1 file. */
async function readHeader(path: string): Promise<V1Header> {
  for await (const { text } of readLines(path)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ImportSourceError(`${path}: the first line is not JSON (expected the ${FORMAT} header)`);
    }
    const header = V1Header.safeParse(value);
    if (!header.success)
      throw new ImportSourceError(`${path}: not an ${FORMAT} header: ${describeIssue(header.error)}`);
    return header.data;
  }
  throw new ImportSourceError(`${path} is empty`);
}

/** An authd.v1 file (what `authd export` writes). */
export async function openAuthdFile(path: string): Promise<RecordStream> {
  const header = await readHeader(path);
  return {
    header,
    async *records() {
      let first = true;
      for await (const record of jsonLines(readLines(path))) {
        if (first) {
          first = false;
          continue;
        }
        yield record;
      }
    },
  };
}
