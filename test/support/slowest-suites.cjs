/** A jest reporter: after the run, the ten suites that took longest (where `npm test`'s time goes). */
class SlowestSuites {
  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .map((r) => ({ seconds: (r.perfStats.end - r.perfStats.start) / 1000, file: r.testFilePath.slice(process.cwd().length + 1) }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10);
    if (suites.length < 2) return;
    const lines = suites.map(({ seconds, file }) => `  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
    process.stderr.write(`\nThe ${suites.length} slowest suites:\n${lines.join('\n')}\n`);
  }
}
module.exports = SlowestSuites;
