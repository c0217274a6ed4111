// JUnit XML, which every CI shows: each analysis that has tests to show adds
// its testsuites; input errors (and an analysis' own "nothing to judge") are
// the error of an `inputs` testsuite, so a CI page never shows green — or
// nothing — for a run whose exit code is not 0.
import type { Transform } from 'node:stream';
import type { Report } from '../lib/report/index.js';
import type { Configured } from '../lib/analyses/types.js';
import type { SinkOptions } from './report-sink.js';
import { reportSink } from './report-sink.js';
import { analysesOf } from '../lib/report/index.js';
import { xmlText as text } from '../lib/core/escape.js';

export { xml } from '../lib/core/escape.js';

export function renderJunit(report: Report, analyses: readonly Configured[]): string {
  const withTests = analyses.filter((c) => c.analysis.render.junit);
  const parts = withTests.flatMap(({ analysis }) => {
    const section = report[analysis.key];
    return section === undefined ? [] : [analysis.render.junit!(section)];
  });
  const problems = [
    ...report.inputErrors.map((e) => e.message),
    ...analyses.flatMap(({ analysis }) => {
      const section = report[analysis.key];
      return section === undefined ? [] : (analysis.gate?.(section).problems ?? []);
    }),
  ];
  const errors = problems.length ? 1 : 0;
  const tests = parts.reduce((n, p) => n + p.tests, 0) + errors;
  const failures = parts.reduce((n, p) => n + p.failures, 0);
  const name = ['agent-eval-stream', ...withTests.map((c) => c.analysis.name)].join(' ');
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${text(name)}" tests="${tests}" failures="${failures}" errors="${errors}">`];
  if (errors) {
    out.push('  <testsuite name="inputs" tests="1" failures="0" errors="1">', '    <testcase name="inputs" classname="inputs">');
    out.push(`      <error type="input" message="${text(problems.join('; '))}">${text(problems.join('\n'))}</error>`, '    </testcase>', '  </testsuite>');
  }
  for (const p of parts) for (const line of p.suites) out.push(line);
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

export function junit(opts: SinkOptions): Transform {
  const analyses = analysesOf(opts);
  return reportSink({ ...opts, analyses }, (r) => renderJunit(r, analyses));
}
