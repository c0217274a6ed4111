import t from 'tap';
import { mentionedPaths } from '../lib/analyses/sufficiency/mentions.js';

// The reference's pattern: the linear finder must return exactly its matches.
const REFERENCE = /(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z]\w*/g;

t.test('examples', async (t) => {
  t.same(mentionedPaths('1. lib/router/index.js:42 handle'), ['lib/router/index.js'], 'a :42 suffix is not part of it');
  t.same(mentionedPaths('see index.js and a/b.tar.gz, @scope/pkg/x.d.ts'), ['a/b.tar.gz', '@scope/pkg/x.d.ts'], 'a bare basename is never mentioned');
  t.same(mentionedPaths('a/b.js/c x//y.js a/b.1 a/.js'), ['a/b.js'], 'an extension needs a letter; an empty segment breaks');
});

t.test('identical to the reference regex on 100,000 random strings', async (t) => {
  const alphabet = ['a', 'b', 'Z', '1', '_', '.', '.', '/', '/', '-', '@', '+', ':', ' ', 'é', '\n'];
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  let mismatches = 0;
  let first = '';
  for (let k = 0; k < 100_000; k++) {
    let s = '';
    const len = rnd(32);
    for (let i = 0; i < len; i++) s += alphabet[rnd(alphabet.length)];
    const want = [...s.matchAll(REFERENCE)].map((m) => m[0]);
    if (JSON.stringify(mentionedPaths(s)) !== JSON.stringify(want)) {
      if (!mismatches) first = s;
      mismatches++;
    }
  }
  t.equal(mismatches, 0, first ? `first mismatch: ${JSON.stringify(first)}` : 'no mismatch');
});
