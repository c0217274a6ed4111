// The floor any JSONL reader pays: read the file, split it on LF, JSON.parse
// every line. Nothing that reads every line can be cheaper; a tool can beat
// it only by not parsing what it does not need.
//
//   node dist/bench/bare.js FILE   -> prints the number of lines parsed
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

const decoder = new StringDecoder('utf8');
let pending = '';
let lines = 0;
const parse = (s: string): void => {
  if (s !== '' && JSON.parse(s) !== undefined) lines++;
};
for await (const chunk of createReadStream(process.argv[2]!, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
  const s = decoder.write(chunk);
  let nl = s.indexOf('\n');
  if (nl === -1) {
    pending += s;
    continue;
  }
  parse(pending + s.slice(0, nl));
  let start = nl + 1;
  while ((nl = s.indexOf('\n', start)) !== -1) {
    parse(s.slice(start, nl));
    start = nl + 1;
  }
  pending = s.slice(start);
}
parse(pending + decoder.end());
process.stdout.write(`${lines}\n`);
