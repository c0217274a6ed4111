import t from 'tap';
import { baseName, normPath, pathsMatch, resolvePath, samePath } from '../lib/paths.js';

t.test('samePath: the reference rule', async (t) => {
  t.ok(samePath('/private/tmp/t-base/lib/response.js', 'lib/response.js'), 'absolute ends with relative');
  t.ok(samePath('response.js', 'lib/response.js'), 'a bare basename matches');
  t.ok(samePath('../lib/x.js', 'lib/x.js'), '../ by suffix');
  t.ok(samePath('./lib/x.js', 'lib/x.js'), 'one leading ./ dropped');
  t.ok(samePath('lib\\x.js', 'lib/x.js'), 'backslashes');
  t.notOk(samePath('Lib/Response.js', 'lib/response.js'), 'case-sensitive');
  t.notOk(samePath('lib/', 'lib'), 'a trailing slash breaks it');
  t.notOk(samePath('/a/lib/x.js', '/b/lib/x.js'), 'two absolute roots');
  t.notOk(samePath('', 'x'), 'empty is never a match');
  t.notOk(samePath('xlib/x.js', 'lib/x.js'), 'suffix only at a / boundary');
});

t.test('resolvePath and pathsMatch', async (t) => {
  t.equal(resolvePath('lib/./x.js', '/repo'), '/repo/lib/x.js');
  t.equal(resolvePath('../x.js', '/repo/src'), '/repo/x.js');
  t.equal(resolvePath('/a/../b/', undefined), '/a/../b/'.replace('/a/../b/', '/b'), 'absolute paths normalise without a cwd');
  t.equal(resolvePath('x.js', undefined), undefined, 'relative without cwd: unknown');
  t.equal(resolvePath('~/x', '/repo'), undefined, '~ is not guessed');
  t.ok(pathsMatch('/repo/lib/./x.js', '/repo', 'lib/x.js', '/repo'), 'equal once resolved');
  t.ok(pathsMatch('x.js', '/repo/lib', 'lib/x.js', '/repo'), 'or by suffix');
  t.notOk(pathsMatch('/other/y.js', '/repo', 'lib/x.js', '/repo'));
});

t.test('normPath and baseName', async (t) => {
  t.equal(normPath('./a\\b'), 'a/b');
  t.equal(baseName('/t/lib/x.js'), 'x.js');
  t.equal(baseName('lib/'), 'lib/', 'empty last segment: the raw path');
});
