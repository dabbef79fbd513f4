// Prints one closing line for the whole `npm test` run: "ikpd: N passed, N failed[, N skipped]",
// from CTest's JUnit report, GoogleTest's and fuzz.sh's XML reports and Vitest's JSON report (a missing report counts as a failure).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`summary: missing report ${file}`);
    failed += 1;
    continue;
  }
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.json')) {
    const r = JSON.parse(text);
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
    // A test file that failed to load has no failed assertion of its own: count it once.
    failed += r.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed')).length;
  } else {
    // GoogleTest's XML has a <testsuites> root with the totals; CTest's JUnit a single <testsuite>.
    const suite = /<testsuites\b[^>]*>/.exec(text)?.[0] ?? /<testsuite\b[^>]*>/.exec(text)?.[0] ?? '';
    const attr = (n) => Number(new RegExp(`\\b${n}="(\\d+)"`).exec(suite)?.[1] ?? 0);
    const s = attr('skipped') + attr('disabled');
    failed += attr('failures') + attr('errors');
    skipped += s;
    passed += attr('tests') - attr('failures') - attr('errors') - s;
  }
}
console.log(`ikpd: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
