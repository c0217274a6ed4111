// Files the CLI writes never touch an input, are never written twice, and
// are never left half-written where a good one stood.
import t from 'tap';
import type { TAP } from 'tap';
import { existsSync, linkSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { cli, FIXTURES } from './helpers/cli.js';
import { main } from '../lib/cli/main.js';

const EXPRESS = readFileSync(join(FIXTURES, 'express-res-send.jsonl'));

function project(t: { testdir: TAP['testdir'] }): string {
  const dir = t.testdir({ 'run.jsonl': EXPRESS, traces: { 'a.jsonl': EXPRESS } });
  symlinkSync(join(dir, 'run.jsonl'), join(dir, 'link.jsonl'));
  linkSync(join(dir, 'run.jsonl'), join(dir, 'hard.jsonl'));
  return dir;
}

t.test('a report over an input is refused before anything is opened: same name, symlink, hard link', async (t) => {
  const dir = project(t);
  const cases: Array<[string, string[], RegExp]> = [
    ['the same name', ['--reporter', 'json=run.jsonl', 'run.jsonl'], /--reporter json=run\.jsonl would overwrite the input run\.jsonl$/m],
    ['a symlink to the input', ['--reporter', 'json=link.jsonl', 'run.jsonl'], /--reporter json=link\.jsonl would overwrite the input run\.jsonl \(the same file\)/],
    ['the input through a symlink', ['--reporter', 'json=run.jsonl', 'link.jsonl'], /would overwrite the input link\.jsonl \(the same file\)/],
    ['a hard link to the input', ['--reporter', 'json=hard.jsonl', 'run.jsonl'], /--reporter json=hard\.jsonl would overwrite the input run\.jsonl \(the same file\)/],
    ['a file found in a directory input', ['--reporter', 'markdown=traces/a.jsonl', 'traces'], /would overwrite the input traces\/a\.jsonl/],
    ['a new file the directory walk would read', ['--reporter', 'json=traces/report.jsonl', 'traces'], /--reporter json=traces\/report\.jsonl is inside the input folder traces, which reads it as a transcript/],
  ];
  for (const [what, args, message] of cases) {
    const r = await cli(args, { cwd: dir });
    t.equal(r.code, 2, `${what}: exit 2`);
    t.match(r.stderr, message, what);
    t.equal(r.stdout, '', `${what}: nothing analysed`);
  }
  t.same(readFileSync(join(dir, 'run.jsonl')), EXPRESS, 'the input is untouched');
  t.same(readFileSync(join(dir, 'traces', 'a.jsonl')), EXPRESS);
  t.notOk(existsSync(join(dir, 'traces', 'report.jsonl')), 'nothing was created');
  t.same(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
  const beside = await cli(['--reporter', 'json=traces/report.md', 'traces'], { cwd: dir });
  t.equal(beside.code, 0, 'a file the walk does not read may go in the folder');
});

t.test('two reporters writing one file is a usage error', async (t) => {
  const dir = project(t);
  const r = await cli(['--reporter', 'json=out.json', '--reporter', 'markdown=out.json', 'run.jsonl'], { cwd: dir });
  t.equal(r.code, 2);
  t.match(r.stderr, /--reporter json=out\.json and --reporter markdown=out\.json write the same file/);
  symlinkSync(join(dir, 'out.md'), join(dir, 'out-link.md'));
  const linked = await cli(['--reporter', 'markdown=out.md', '--reporter', 'junit=out-link.md', 'run.jsonl'], { cwd: dir });
  t.equal(linked.code, 2, 'through a symlink too (to a file not there yet)');
  const summary = await cli(['--reporter', 'markdown=s.md', 'run.jsonl'], { cwd: dir, env: { GITHUB_STEP_SUMMARY: join(dir, 's.md') } });
  t.equal(summary.code, 2, 'and the step summary is one of the files written');
  t.match(summary.stderr, /--reporter markdown=s\.md and \$GITHUB_STEP_SUMMARY write the same file/);
});

t.test('graph outputs: -o over an input or the graph is refused', async (t) => {
  const dir = project(t);
  const build = await cli(['graph', 'build', '--prod', 'run.jsonl', '-o', 'link.jsonl'], { cwd: dir });
  t.equal(build.code, 2);
  t.match(build.stderr, /-o link\.jsonl would overwrite the input run\.jsonl \(the same file\)/);
  t.equal((await cli(['graph', 'build', '--prod', 'run.jsonl', '-o', 'graph.json'], { cwd: dir })).code, 0);
  symlinkSync(join(dir, 'graph.json'), join(dir, 'graph-link.json'));
  const heat = await cli(['graph', 'heatmap', 'graph.json', '-o', 'graph-link.json'], { cwd: dir });
  t.equal(heat.code, 2);
  t.match(heat.stderr, /-o graph-link\.json would overwrite the input graph\.json \(the same file\)/);
  const report = await cli(['graph', 'backlog', 'graph.json', '--reporter', 'json=graph-link.json'], { cwd: dir });
  t.equal(report.code, 2, 'a graph report over its graph');
  t.equal(JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8')).schemaVersion, 1, 'the graph is untouched');
});

t.test('files are put in place whole: replaced by rename, left alone when the run is cut short', async (t) => {
  const dir = project(t);
  writeFileSync(join(dir, 'out.json'), 'OLD');
  const before = statSync(join(dir, 'out.json')).ino;
  t.equal((await cli(['--reporter', 'json=out.json', 'run.jsonl'], { cwd: dir })).code, 0);
  t.equal(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')).sessions[0], 'express-demo');
  t.not(statSync(join(dir, 'out.json')).ino, before, 'a new file renamed over the old one, not the old one truncated');

  writeFileSync(join(dir, 'out.json'), 'OLD');
  // The reader of stdout leaves after the first line: the run stops, and the
  // JSON report it had not finished must not replace the good file.
  const stdout = new Writable({
    write(_c, _e, cb) {
      const err = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
      cb(err);
    },
  });
  const code = await main(['--reporter', 'ndjson', '--reporter', 'json=out.json', 'run.jsonl'], { stdout, stderr: new Writable({ write: (_c, _e, cb) => cb() }), stdin: Readable.from([]), cwd: dir, env: {} });
  t.equal(code, 0, 'a reader leaving is not an error');
  t.equal(readFileSync(join(dir, 'out.json'), 'utf8'), 'OLD', 'the old report stands');
  t.same(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
});

t.test('a full disk or a failing stdout: exit 2, one line', { skip: existsSync('/dev/full') ? false : 'no /dev/full here' }, async (t) => {
  const dir = project(t);
  const full = await cli(['--reporter', 'json=/dev/full', 'run.jsonl'], { cwd: dir });
  t.equal(full.code, 2);
  t.equal(full.stderr, 'agent-eval-stream: cannot write /dev/full: ENOSPC (no space left on device)\n');
  const graph = await cli(['graph', 'build', '--prod', 'run.jsonl', '-o', '/dev/full', '--quiet'], { cwd: dir });
  t.equal(graph.code, 2);
  t.equal(graph.stderr, 'agent-eval-stream: cannot write /dev/full: ENOSPC (no space left on device)\n');
  let stderr = '';
  const stdout = new Writable({ write: (_c, _e, cb) => cb(Object.assign(new Error('write EIO'), { code: 'EIO', syscall: 'write' })) });
  const code = await main(['run.jsonl'], { stdout, stderr: new Writable({ write: (c, _e, cb) => ((stderr += String(c)), cb()) }), stdin: Readable.from([]), cwd: dir, env: {} });
  t.equal(code, 2);
  t.equal(stderr, 'agent-eval-stream: cannot write stdout: EIO (input/output error)\n');
});

t.test('a new file on a file system without hard links: still whole, still never over a file', async (t) => {
  const real = await import('node:fs/promises');
  const noLinks = { ...real, link: async () => Promise.reject(Object.assign(new Error('operation not permitted'), { code: 'EPERM' })) };
  const { writeNewOutput } = await t.mockImport<typeof import('../lib/cli/output-files.js')>('../lib/cli/output-files.js', { 'node:fs/promises': noLinks });
  const dir = t.testdir({ 'taken.yaml': 'keep me\n' });
  await writeNewOutput(join(dir, 'new.yaml'), 'new.yaml', 'a: 1\n');
  t.equal(readFileSync(join(dir, 'new.yaml'), 'utf8'), 'a: 1\n', 'renamed into place');
  await t.rejects(writeNewOutput(join(dir, 'taken.yaml'), 'taken.yaml', 'b: 2\n'), /taken\.yaml exists: give --force to replace it/);
  t.equal(readFileSync(join(dir, 'taken.yaml'), 'utf8'), 'keep me\n');
  t.same(readdirSync(dir).sort(), ['new.yaml', 'taken.yaml'], 'no temporary file left');
});
