// Prints, as the last line of a jest run, how long it took and which tiers it ran, so that the
// time a tier takes is in every log (npm test runs the tiers one after the other: one line
// each). Written when the process exits, after jest's own summary. Below it, one line per suite
// skipped whole (its title says why), and one line that explains jest's "A worker process has
// failed to exit gracefully" when jest printed it.
const WORKER_MESSAGE = 'A worker process has failed to exit gracefully';

class TierDuration {
  onRunStart() {
    this.start = Date.now();
    // jest writes the message itself, on stderr: watch for it rather than guess.
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk, ...rest) => {
      if (String(chunk).includes(WORKER_MESSAGE)) this.workerMessage = true;
      return write(chunk, ...rest);
    };
  }

  onRunComplete(_contexts, results) {
    const lines = this.lines(results);
    process.once('exit', () => process.stderr.write(`${lines.join('\n')}\n`));
  }

  /** The lines printed at exit, for a run's aggregated results. */
  lines(results) {
    const suites = new Map();
    const skipped = [];
    for (const r of results.testResults) {
      const tier = r.displayName?.name ?? 'jest';
      suites.set(tier, (suites.get(tier) ?? 0) + 1);
      const tests = r.testResults ?? [];
      if (tests.length && tests.every((t) => t.status === 'pending'))
        skipped.push(`   skipped: ${tests[0].ancestorTitles[0] ?? tests[0].title}`);
    }
    const tiers = [...suites].map(([tier, n]) => `${tier} (${n} suites)`).join(', ') || 'no suites';
    const seconds = ((Date.now() - (this.start ?? Date.now())) / 1000).toFixed(1);
    const failed = results.numFailedTestSuites ? `, ${results.numFailedTestSuites} failed` : '';
    const lines = [`== ${tiers}: ${results.numTotalTests} tests in ${seconds} s${failed}`, ...skipped];
    if (this.workerMessage)
      lines.push(
        `   ("${WORKER_MESSAGE}" above: a worker took more than jest's 500 ms to hand back its memory on busy cores, not a leak; see jest.config.js)`,
      );
    return lines;
  }
}

module.exports = TierDuration;
