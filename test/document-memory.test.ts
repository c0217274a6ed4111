// A JSON document is read in 1 MiB pieces, and its tokenizer's strings are
// slices of them: a run id kept in the report would keep its whole piece
// alive. The runs that leave the walker own their strings, so what a report
// keeps costs what it is, not what was read around it. Asserted on the heap
// after a collection, never on time.
import t from 'tap';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { documentRecords } from '../lib/io/document-records.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

t.test('run ids kept from a document do not keep the text they were read from', async (t) => {
  const RUNS = 40;
  const PAD = 1 << 20;
  async function* chunks(): AsyncGenerator<string> {
    yield '{"runs":[';
    // Each run's id sits in a piece of text a MiB long (blanks after it, no newline).
    for (let i = 0; i < RUNS; i++) yield `${i ? ',' : ''}{"run_id":"a-run-whose-id-is-long-${i}","steps":[]}${' '.repeat(PAD)}`;
    yield ']}';
  }
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: string[] = [];
  for await (const r of documentRecords(chunks(), 'doc.json')) {
    if (r.type === 'record' && r.value['#traces'] === 'run') kept.push((r.value.run as { run_id: string }).run_id);
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  t.equal(kept.length, RUNS);
  t.ok(grown < (RUNS * PAD) / 4, `kept ${RUNS} ids in ${(grown / 1e6).toFixed(1)} MB of heap (the text read was ${(RUNS * PAD) / 1e6} MB)`);
});
