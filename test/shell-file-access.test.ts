// The command table: what a shell command does with files.
import t from 'tap';
import { classifyShell } from '../lib/shell/file-access.js';
import { unwrapCommand } from '../lib/shell/wrappers.js';

function kind(cmd: string): [string, string[]] {
  const a = classifyShell(cmd, '/t');
  return [a.kind, a.kind === 'write' ? a.writes.map((w) => w.path) : a.reads.map((r) => r.path)];
}

t.test('reads: the file printers, with their options skipped', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['cat lib/x.js', ['lib/x.js']],
    ['cat -n lib/x.js | head -50', ['lib/x.js']],
    ['head -n 20 ./lib/x.js', ['./lib/x.js']],
    ['tail -n +5 -f lib/x.js', ['lib/x.js']],
    ['nl -ba lib/x.js', ['lib/x.js']],
    ['less -p foo lib/x.js', ['lib/x.js']],
    ['bat --line-range 1:20 lib/x.js', ['lib/x.js']],
    ["sed -n '1,20p' lib/x.js", ['lib/x.js']],
    ['sed -e s/a/b/ -e s/c/d/ lib/x.js lib/y.js', ['lib/x.js', 'lib/y.js']],
    ["awk -F: '{print $1}' lib/x.js", ['lib/x.js']],
    ['awk -f prog.awk n=1 lib/x.js', ['lib/x.js']],
    ['cat < lib/x.js', ['lib/x.js']],
    ['sudo -u root cat lib/x.js', ['lib/x.js']],
    ['env A=1 timeout 5 cat lib/x.js', ['lib/x.js']],
    ['xargs -n 1 cat lib/x.js', ['lib/x.js']],
    ['git show HEAD~1:lib/x.js', ['lib/x.js']],
    ['cat lib/x.js <<<ignored', ['lib/x.js']],
  ];
  for (const [cmd, files] of cases) t.same(kind(cmd), ['read', files], cmd);
});

t.test('writes are not reads', async (t) => {
  const cases: Array<[string, string[]]> = [
    ["sed -i 's/a/b/' lib/x.js", ['lib/x.js']],
    ["sed -i.bak -e 's/a/b/' lib/x.js", ['lib/x.js']],
    ['sed --in-place s/a/b/ lib/x.js', ['lib/x.js']],
    ['awk -i inplace 1 lib/x.js', ['lib/x.js']],
    ['cat lib/x.js > out.js', ['out.js']],
    ['cat lib/x.js >> out.js', ['out.js']],
    ['cat lib/x.js &> out.log', ['out.log']],
    ['cat lib/x.js | tee copy.js', ['copy.js']],
    ['cat lib/x.js | sort > sorted.txt', ['sorted.txt']],
    ["cat > /tmp/note.md <<'EOF'\nx\nEOF", ['/tmp/note.md']],
    ['echo hi > f.txt', ['f.txt']],
  ];
  for (const [cmd, files] of cases) t.same(kind(cmd), ['write', files], cmd);
  t.same(kind("perl -pi -e 's/a/b/' x.js")[0], 'write', 'perl -i');
});

t.test('searches, and commands that touch no file content', async (t) => {
  for (const cmd of ['grep -rn foo lib/', 'rg foo', 'echo x | grep y', 'ls -la src', "find . -name '*.js'", 'tree', 'fd x', 'git grep foo', 'grep foo lib 2>/dev/null']) t.equal(kind(cmd)[0], 'search', cmd);
  for (const cmd of ['npm test', 'wc -l lib/x.js', 'python3 -c "open(1)"', 'cat', 'cat <<EOF\nx.js\nEOF', 'cat lib/x.js > /dev/null', 'command -v cat', 'codegraph explore foo', 'git log', 'perl -Ilib -MList::Util -e 1 x.pl']) t.equal(kind(cmd)[0], 'none', cmd);
  for (const cmd of ['cat $FILE', 'cat "${DIR}/a.js"', 'cat <(echo hi)', 'for f in *.js; do cat "$f"; done', 'cat "$(echo a.js)"']) t.same(kind(cmd), ['none', []], `an operand we cannot know is not a file: ${cmd}`);
  for (const cmd of ['grep -rn x . > hits.txt', 'ls > listing.txt']) t.equal(kind(cmd)[0], 'search', `a search stays a search wherever its output goes: ${cmd}`);
});

t.test('stderr redirects and stdout dups keep a read a read', async (t) => {
  for (const cmd of ['cat lib/x.js 2>/dev/null', 'cat lib/x.js 2>&1', 'cat lib/x.js 2>err.log', 'cat lib/x.js >&2', 'cat lib/x.js > /dev/stdout']) t.same(kind(cmd), ['read', ['lib/x.js']], cmd);
});

t.test('chains: reads win, then searches; substitutions count; cd moves the cwd', async (t) => {
  t.same(kind('grep -rn x lib && cat lib/x.js'), ['read', ['lib/x.js']]);
  t.same(kind('npm test; ls'), ['search', []]);
  t.same(kind('echo "$(cat src/app.ts)"'), ['read', ['src/app.ts']]);
  t.same(kind('x=$(cat a.txt)'), ['read', ['a.txt']]);
  const a = classifyShell('cd /repo && cat lib/x.js; cd sub && head y.js; cd $DIR && cat z.js', '/t');
  t.same(a.reads.map((r) => [r.path, r.cwd]), [['lib/x.js', '/repo'], ['y.js', '/repo/sub'], ['z.js', undefined]], 'an unknown cd target forgets the cwd');
  t.same(classifyShell('cat a.js a.js').reads.length, 1, 'one file read twice is one read');
});

t.test('wrappers unwrap to the command they run', async (t) => {
  t.same(unwrapCommand(['sudo', '-u', 'me', 'nice', '-n', '5', 'nohup', 'cat', 'f']), ['cat', 'f']);
  t.same(unwrapCommand(['timeout', '-s', 'KILL', '10', 'grep', 'x']), ['grep', 'x']);
  t.same(unwrapCommand(['command', '-v', 'cat']), [], 'command -v runs nothing');
});
