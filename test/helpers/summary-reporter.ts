import type { Reporter, TestModule } from "vitest/node";

// Prints one plain closing line, "tests: N passed, N failed, N skipped", that CI reads, after the files that
// took longest (import plus tests and hooks), so a slow suite can be read off any run's log.
const slowestShown = 12;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const durations: Array<{ file: string; seconds: number }> = [];
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failedHere++;
        else skipped++;
      }
      // A file that failed outside any test (import error, failing beforeAll) counts as one failure.
      if (module.state() === "failed" && failedHere === 0) failedHere = 1;
      failed += failedHere;
      const diagnostic = module.diagnostic();
      durations.push({
        file: module.relativeModuleId,
        seconds: (diagnostic.collectDuration + diagnostic.duration) / 1000,
      });
    }
    durations.sort((a, b) => b.seconds - a.seconds);
    const total = durations.reduce((sum, entry) => sum + entry.seconds, 0);
    const lines = durations
      .slice(0, slowestShown)
      .map((entry) => `  ${entry.seconds.toFixed(1).padStart(7)} s  ${entry.file}`);
    process.stdout.write(
      `\nslowest files (of ${total.toFixed(0)} s across ${durations.length} files):\n${lines.join("\n")}\n`,
    );
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
