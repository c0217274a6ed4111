// The file source calls a dialect only through its contract: a dialect of
// one's own, given in the list, decides how a document is walked — nothing
// in lib/io knows the format.
import t from 'tap';
import { join } from 'node:path';
import type { Dialect } from '../lib/dialects/types.js';
import { DIALECTS } from '../lib/dialects/registry.js';
import type { PreRecord } from '../lib/core/records.js';
import { readSessions } from '../lib/io/source.js';

t.test('a document is walked by the first dialect of the list with a walker', async (t) => {
  const dir = t.testdir({ 'doc.json': '{\n  "runs": []\n}\n' });
  let tokens = 0;
  const counting: Dialect = {
    name: 'counting',
    detect: (v) => 'tokens' in v,
    create: () => ({ record: () => {}, takeEndedByResult: () => false }),
    reads: 'document',
    walker: (file) => ({ token: () => void tokens++, end: (push) => push({ type: 'record', file, line: 1, value: { tokens } }) }),
  };
  const records = async (dialects?: Dialect[]): Promise<PreRecord[]> => {
    const out: PreRecord[] = [];
    for await (const r of readSessions([{ key: 'doc', files: [join(dir, 'doc.json')] }], { dialects }) as AsyncIterable<PreRecord>) if (r.type !== 'boundary') out.push(r);
    return out;
  };
  // By hand: `{`, the key `runs`, `[`, `]`, `}`: five tokens.
  t.same(await records([counting, ...DIALECTS]), [{ type: 'record', file: join(dir, 'doc.json'), line: 1, value: { tokens: 5 } }]);
  t.match(await records(), [{ type: 'raw_diagnostic', code: 'document_without_runs' }], 'the built-in walker: a document with no runs');
});
