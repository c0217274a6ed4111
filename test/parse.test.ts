import t from 'tap';
import { parseLine, parseLogic } from '../lib/core/parse-line.js';
import { runLogic } from '../lib/core/stage.js';
import type { PreRecord } from '../lib/core/records.js';

t.test('a JSON object becomes a record', async (t) => {
  t.same(parseLine({ type: 'line', file: 'f', line: 3, text: '{"type":"x"}' }), { type: 'record', file: 'f', line: 3, value: { type: 'x' } });
});

t.test('not JSON, or not an object, becomes a diagnostic with file, line and the start of the line', async (t) => {
  const bad = parseLine({ type: 'line', file: 'f', line: 7, text: `oops ${'z'.repeat(200)}` });
  t.equal(bad.type, 'raw_diagnostic');
  if (bad.type !== 'raw_diagnostic') return;
  t.same([bad.code, bad.file, bad.line], ['line_not_json', 'f', 7]);
  t.match(bad.message, /^not JSON \(.*\): "oops z+…"$/, 'quotes the first 80 characters');
  t.ok(bad.message.length < 200, 'but not the whole line');
  for (const text of ['[1]', '"s"', '42', 'null']) {
    const d = parseLine({ type: 'line', file: 'f', line: 1, text });
    t.equal(d.type === 'raw_diagnostic' && d.code, 'line_not_object', text);
  }
});

t.test('control characters in a bad line never reach the terminal', async (t) => {
  const d = parseLine({ type: 'line', file: 'f', line: 1, text: 'x\u001b[31mRED\u0007' });
  t.notMatch(d.type === 'raw_diagnostic' && d.message, /[\u0000-\u001f]/, 'escaped');
  t.match(d.type === 'raw_diagnostic' && d.message, /\\u001b/);
});

t.test('other records pass through', async (t) => {
  const b: PreRecord = { type: 'boundary', edge: 'segment_start', sessionKey: 'k', segment: 1, file: 'f', last: false, stopped: false };
  t.same(runLogic(parseLogic, [b]), [b]);
});
