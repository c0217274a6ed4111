// JUnit XML, which every CI shows: a testsuite per task, a testcase per run;
// corrupt-success and fail are failures, warnings go to system-out. When the
// gate fails, a `gate` testsuite fails with its reasons, so a CI page never
// shows green for a run whose exit code is 3 (--fail-on warnings, flaky).
import type { Transform } from 'node:stream';
import type { Report } from '../lib/report/report.js';
import type { SinkOptions } from './report-sink.js';
import { reportSink } from './report-sink.js';
import { passKText } from '../lib/analyses/grade/verdicts.js';
import { NOTHING_GRADED } from '../lib/analyses/grade/report-section.js';
import { printable } from '../lib/core/escape.js';

/** Text safe inside XML attributes and elements; characters XML 1.0 forbids are dropped. */
export function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A value from input: control characters shown (a CI page prints them), then XML-escaped. */
const text = (s: string): string => xml(printable(s));

export function renderJunit(report: Report): string {
  const g = report.grade;
  const runs = g?.runs ?? [];
  const failed = (v: string): boolean => v === 'corrupt-success' || v === 'fail';
  const gate = g?.gate.failed === true;
  // Input errors and "nothing graded" are errors of their own testsuite: a
  // CI page must never show green (or nothing) for a run that exits 2.
  const inputProblems = [...report.inputErrors.map((e) => e.message), ...(g && g.runs.length === 0 ? [NOTHING_GRADED] : [])];
  const errors = inputProblems.length ? 1 : 0;
  const common = g ? `<property name="config" value="${text(g.config)}"/><property name="verified" value="${g.verified}"/><property name="failOn" value="${xml(g.failOn.join(','))}"/>` : '';
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="agent-eval-stream grade" tests="${runs.length + (gate ? 1 : 0) + errors}" failures="${runs.filter((r) => failed(r.verdict)).length + (gate ? 1 : 0)}" errors="${errors}">`];
  if (errors) {
    out.push('  <testsuite name="inputs" tests="1" failures="0" errors="1">', '    <testcase name="inputs" classname="inputs">');
    out.push(`      <error type="input" message="${text(inputProblems.join('; '))}">${text(inputProblems.join('\n'))}</error>`, '    </testcase>', '  </testsuite>');
  }
  if (g && gate) {
    out.push('  <testsuite name="gate" tests="1" failures="1" errors="0">', `    <properties>${common}</properties>`, '    <testcase name="gate" classname="gate">');
    out.push(`      <failure type="gate" message="${g.gate.reasons.map(text).join('; ')}">${g.gate.reasons.map(text).join('\n')}</failure>`, '    </testcase>', '  </testsuite>');
  }
  for (const t of g?.tasks ?? []) {
    const mine = runs.filter((r) => r.task === t.task);
    out.push(`  <testsuite name="${text(t.task)}" tests="${mine.length}" failures="${mine.filter((r) => failed(r.verdict)).length}" errors="0">`);
    out.push(`    <properties><property name="status" value="${t.status}"/><property name="passK" value="${passKText(t.passK)}"/>${common}</properties>`);
    for (const r of mine) {
      out.push(`    <testcase name="${text(r.run)}" classname="${text(r.task)}">`);
      const high = r.flags.filter((f) => f.severity === 'high');
      if (r.verdict === 'corrupt-success') out.push(`      <failure type="corrupt-success" message="${high.map((f) => text(f.detail)).join('; ')}">${high.map((f) => `step ${f.step} ${f.rule}: ${text(f.detail)}`).join('\n')}</failure>`);
      if (r.verdict === 'fail') out.push(`      <failure type="fail" message="not delivered">run ${text(r.run)} did not deliver</failure>`);
      const warnings = r.flags.filter((f) => f.severity !== 'high');
      if (warnings.length || r.notEvaluated.length) {
        const lines = [...warnings.map((f) => `${f.severity} ${f.rule} (step ${f.step}): ${text(f.detail)}`), ...(r.notEvaluated.length ? [`not evaluated: ${text(r.notEvaluated.join(', '))}`] : [])];
        out.push(`      <system-out>${lines.join('\n')}</system-out>`);
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

export function junit(opts: SinkOptions): Transform {
  return reportSink(opts, renderJunit);
}
