// Codex child agents read into the session that spawned them. The fixture
// (fixtures/codex/spawned-child/2026/03/02/, a sessions folder as Codex keeps
// it) is a parent rollout whose `spawn_agent` call (call_spawn1) returns
// the child's thread id, and the child's rollout, whose session_meta names
// the parent. By hand:
//   parent (main): spawn_agent, wait_agent → 2 steps; token counts 1000/0/50, then 1200 (1000 cached)/30
//   child (call_spawn1): two exec_command calls → 2 steps; 400/0/20, then 500 (400 cached)/15
// so one run of 4 steps, the child's thread under its call, and each
// thread's usage counted from its own cumulative counts:
//   gpt-5.3-codex      input 1000 + 200 = 1200, cache reads 1000, output 80
//   gpt-5.3-codex-mini input 400 + 100 = 500, cache reads 400, output 35
import t from 'tap';
import type { TAP } from 'tap';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, FIXTURES } from './helpers/cli.js';

const DAY = 'codex/spawned-child/2026/03/02';
const PARENT = '0190a000-0000-7000-8000-00000000000a';
const CHILD = '0190a000-0000-7000-8000-00000000000b';
const PARENT_FILE = `${DAY}/rollout-2026-03-02T09-00-00-${PARENT}.jsonl`;
const CHILD_FILE = `${DAY}/rollout-2026-03-02T09-00-03-${CHILD}.jsonl`;

interface Report {
  sessions: string[];
  grade: { runs: { run: string; steps: number; stepsByThread: Record<string, number>; threads?: Record<string, string> }[] };
  tokens: { byModel: Record<string, { input: number; output: number; cacheRead: number }> };
  diagnostics: { items: { code: string; file: string }[] };
}

const run = async (args: string[], cwd?: string): Promise<Report> => JSON.parse((await cli(['--json', '-q', ...args], cwd ? { cwd } : {})).stdout) as Report;

function spawned(t: Pick<TAP, 'same' | 'match'>, j: Report, how: string): void {
  t.same(j.sessions, [PARENT], `${how}: one session, the parent's`);
  t.match(j.grade.runs, [{ run: PARENT, steps: 4, stepsByThread: { main: 2, call_spawn1: 2 }, threads: { call_spawn1: 'subagent' } }], how);
  t.match(j.tokens.byModel, {
    'gpt-5.3-codex': { input: 1200, output: 80, cacheRead: 1000 },
    'gpt-5.3-codex-mini': { input: 500, output: 35, cacheRead: 400 },
  });
}

t.test('a child rollout is a thread under the spawn_agent call that started it', async (t) => {
  spawned(t, await run(['codex/spawned-child']), 'the sessions folder walked');
  spawned(t, await run([PARENT_FILE]), 'the parent named alone finds its child beside it');
  spawned(t, await run([CHILD_FILE, PARENT_FILE]), 'both named, the child first');
});

t.test('a child named alone is a session of its own', async (t) => {
  const j = await run([CHILD_FILE]);
  t.same(j.sessions, [CHILD]);
  t.match(j.grade.runs, [{ run: CHILD, steps: 2, stepsByThread: { main: 2 } }]);
});

t.test('a child spawned after midnight is found in the next day’s folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aes-codex-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(FIXTURES, 'codex/spawned-child'), join(dir, 's'), { recursive: true });
  mkdirSync(join(dir, 's/2026/03/03'), { recursive: true });
  renameSync(join(dir, 's', CHILD_FILE.replace('codex/spawned-child/', '')), join(dir, `s/2026/03/03/rollout-2026-03-03T00-00-03-${CHILD}.jsonl`));
  spawned(t, await run([`s/2026/03/02/rollout-2026-03-02T09-00-00-${PARENT}.jsonl`], dir), 'next day');
});

t.test('a child nothing names: read last, as an orphan, and said', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aes-codex-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(FIXTURES, DAY), dir, { recursive: true });
  const parent = join(dir, `rollout-2026-03-02T09-00-00-${PARENT}.jsonl`);
  // The spawn's output no longer names the child.
  writeFileSync(parent, readFileSync(parent, 'utf8').replace(`{\\"agent_id\\":\\"${CHILD}\\",\\"nickname\\":\\"Boyle\\"}`, 'spawned'));
  const j = await run(['.'], dir);
  t.same(j.sessions, [PARENT], 'still folded: its session_meta names the parent');
  // Its steps are the run's, as a Claude Code subagent's that nothing links: the thread is marked an orphan.
  t.match(j.grade.runs, [{ run: PARENT, steps: 4, stepsByThread: { main: 2, [`agent-${CHILD}`]: 2 }, threads: { [`agent-${CHILD}`]: 'orphan' } }]);
  t.same(
    j.diagnostics.items.filter((d) => d.code === 'codex_child_unlinked').map((d) => d.file),
    [`rollout-2026-03-02T09-00-03-${CHILD}.jsonl`],
  );
  // Named alone, the parent whose spawn names no child reads without one.
  const alone = await run([`rollout-2026-03-02T09-00-00-${PARENT}.jsonl`], dir);
  t.match(alone.grade.runs, [{ run: PARENT, steps: 2, stepsByThread: { main: 2 } }]);
  t.notOk(alone.grade.runs[0]!.threads, 'no thread for a child nothing links');
});
