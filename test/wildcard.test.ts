// Permission patterns against the agent's own strings, matched in linear
// time: the work is counted, never timed. Each adversarial subject below
// makes the backtracking regular expression these patterns used to compile
// to take time polynomial in its length (`^.*git.*push.*--force.*$` tries
// every later `push` for every `git`): at 1 MiB it would never finish.
import t from 'tap';
import { Wildcard } from '../lib/core/wildcard.js';
import type { MatchWork } from '../lib/core/wildcard.js';
import { parseToolPattern } from '../lib/permissions/tool-pattern.js';
import { BlastPatterns } from '../lib/analyses/graph/blast.js';

const MiB = 1024 * 1024;

/**
 * The match and whether its work stayed within (subject + 1) × (pattern + 7)
 * steps: one per character and live token, a path glob adding up to six
 * tokens for its optional leading and trailing folders.
 */
function bounded(w: Wildcard, pattern: string, subject: string): [boolean, boolean] {
  const work: MatchWork = { steps: 0 };
  const result = w.matches(subject, work);
  return [result, work.steps > 0 && work.steps <= (subject.length + 1) * (pattern.length + 7)];
}

t.test('a *-glob does work linear in the subject', async (t) => {
  const p = '*git*push*--force*';
  const subject = 'git '.repeat(MiB / 4);
  t.same(bounded(Wildcard.glob(p), p, subject), [false, true], 'no push: no match');
  t.same(bounded(Wildcard.glob(p), p, `${subject}push --force`), [true, true], 'push --force at the very end: a match');
});

t.test('a gitignore path glob does work linear in the path', async (t) => {
  const p = '**/a*a*a*a*a*b';
  const path = 'a'.repeat(MiB);
  t.same(bounded(Wildcard.path(p, false), p, path), [false, true]);
  t.same(bounded(Wildcard.path(p, false), p, `x/${path}b`), [true, true]);
  t.same(bounded(Wildcard.path(p, false), p, `${path}/b`), [false, true], '* does not cross a /');
});

t.test('Bash(…) and Other(…) patterns end to end on a 1 MiB command', async (t) => {
  const huge = `echo ${'git '.repeat(MiB / 4)}`;
  const bash = (command: string) => ({ id: 'x', name: 'Bash', input: { command }, thread: 'main' });
  const force = parseToolPattern('Bash(*git*push*--force*)');
  t.equal(force.matches(bash(huge)), false);
  t.equal(force.matches(bash(`${huge} push --force`)), true);
  const other = parseToolPattern('Task(*a*a*a*a*b*)');
  t.equal(other.matches({ id: 'x', name: 'Task', input: { prompt: 'a'.repeat(MiB) }, thread: 'main' }), false, 'a spec on string arguments');
  const path = parseToolPattern('Read(**/a*a*a*a*a*b)');
  t.equal(path.matches({ id: 'x', name: 'Read', input: { file_path: `/r/${'a'.repeat(MiB)}` }, thread: 'main', cwd: '/r' }), false, 'a path spec');
});

t.test('catalog.blast globs on a tool name', async (t) => {
  const blast = new BlastPatterns({ 'mcp__*_*_*_*_*x': 'irreversible' });
  t.equal(blast.match(`mcp__${'_'.repeat(MiB)}`), undefined);
  t.equal(blast.match('mcp__a_b_c_d_ex'), 'irreversible');
});

t.test('* matches every character, newlines included: a name cannot hide from a pattern', async (t) => {
  // The regular expressions' `.` stopped at a newline, so `mcp__evil__*` missed `mcp__evil__x\ny`.
  t.ok(parseToolPattern('mcp__evil__*').matches({ id: 'x', name: 'mcp__evil__x\ny', input: {}, thread: 'main' }));
  t.equal(new BlastPatterns({ 'mcp__evil__*': 'irreversible' }).match('mcp__evil__x\ny'), 'irreversible');
  t.ok(Wildcard.path('secrets/**', false).matches('secrets/a\nb'));
});

t.test('the semantics the regular expressions had', async (t) => {
  const g = (p: string, s: string, o?: { question?: boolean; fold?: boolean }): boolean => Wildcard.glob(p, o).matches(s);
  t.same([g('a*b', 'ab'), g('a*b', 'axxb'), g('a*b', 'axxbc'), g('*', ''), g('', ''), g('', 'x')], [true, true, false, true, true, false]);
  t.same([g('a?c', 'abc'), g('a?c', 'abc', { question: true }), g('a?c', 'a?c')], [false, true, true], '? is literal unless asked for');
  t.same([g('ReAd', 'read'), g('ReAd', 'read', { fold: true })], [false, true]);
  const p = (glob: string, s: string, anyLevel = false): boolean => Wildcard.path(glob, anyLevel).matches(s);
  t.same([p('src/*.ts', 'src/a.ts'), p('src/*.ts', 'src/d/a.ts'), p('src/**/*.ts', 'src/a.ts'), p('src/**/*.ts', 'src/d/e/a.ts')], [true, false, true, true]);
  t.same([p('dir/**', 'dir'), p('dir', 'dir/x/y'), p('dir', 'dirx'), p('*.env', 'a/b.env', true), p('*.env', 'a/b.env')], [true, true, false, true, false]);
  t.same([p('a?c', 'abc'), p('a?c', 'a/c'), p('a**', 'ab/c')], [true, false, true]);
});
