// Prints, as the last line of a jest run, how long it took and which tiers it ran, so that the
// time a tier takes is in every log (npm test runs the tiers one after the other: one line
// each). Written when the process exits, after jest's own summary.
class TierDuration {
  onRunStart() {
    this.start = Date.now();
  }

  onRunComplete(_contexts, results) {
    const suites = new Map();
    for (const r of results.testResults) {
      const tier = r.displayName?.name ?? 'jest';
      suites.set(tier, (suites.get(tier) ?? 0) + 1);
    }
    const tiers = [...suites].map(([tier, n]) => `${tier} (${n} suites)`).join(', ') || 'no suites';
    const seconds = ((Date.now() - (this.start ?? Date.now())) / 1000).toFixed(1);
    const failed = results.numFailedTestSuites ? `, ${results.numFailedTestSuites} failed` : '';
    const line = `== ${tiers}: ${results.numTotalTests} tests in ${seconds} s${failed}\n`;
    process.once('exit', () => process.stderr.write(line));
  }
}

module.exports = TierDuration;
