// Reads vitest's JSON report and prints the plain "N passed, N failed" line CI reads.
// Exits non-zero when the test command failed, any test failed, or no test ran at all.
import { readFileSync, existsSync } from 'node:fs';

const [reportPath, statusArg] = process.argv.slice(2);
const status = Number(statusArg ?? 1);

if (!reportPath || !existsSync(reportPath)) {
  console.log('no vitest report was written (typecheck or startup failed)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
if (passed + failed === 0) {
  console.log('no test was executed');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || status !== 0 ? 1 : 0);
