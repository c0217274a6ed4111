import t from 'tap';
import { runLogic } from '../lib/stage.js';
import { Demuxer } from '../transforms/demux.js';
import { DelegationResolver } from '../transforms/delegation.js';
import type { CanonicalEvent } from '../lib/events.js';
import type { StreamItem } from '../lib/items.js';
import { call, result, sessionEnd, start, turnEnd } from './helpers/events.js';

function resolve(events: CanonicalEvent[]): StreamItem[] {
  return runLogic(new DelegationResolver(), runLogic(new Demuxer(), events));
}

const resolutions = (out: StreamItem[]) => out.filter((e) => e.kind === 'delegation_resolved').map((e) => (e.kind === 'delegation_resolved' ? [e.id, e.outcome, e.first?.name ?? null, e.thread] : []));

t.test('found: the first call that is neither bookkeeping nor a delegation', async (t) => {
  const out = resolve([start(), call('a1', 'Agent'), call('t', 'TodoWrite', 'a1'), call('n', 'Task', 'a1'), call('g', 'Grep', 'a1'), call('r', 'Read', 'a1'), result('a1'), turnEnd('session_end')]);
  t.same(resolutions(out), [['a1', 'found', 'Grep', 'main'], ['n', 'absent', null, 'a1']], 'resolved once, in the parent thread; the nested one never appeared');
  const at = out.findIndex((e) => e.kind === 'delegation_resolved');
  const before = out[at - 1]!;
  t.equal(before.kind === 'tool_call' && before.id, 'g', 'the moment that call arrives');
});

t.test('none: the subagent ended having only delegated; absent: it never appeared', async (t) => {
  const out = resolve([start(), call('a1', 'Task'), call('n', 'Task', 'a1'), result('n', 'a1'), result('a1'), call('a2', 'Agent'), result('a2'), turnEnd('result'), turnEnd('session_end'), sessionEnd()]);
  t.same(resolutions(out), [['a1', 'none', null, 'main'], ['n', 'absent', null, 'a1'], ['a2', 'absent', null, 'main']]);
  const end = out.findIndex((e) => e.kind === 'turn_end' && e.reason === 'result');
  const lastResolution = out.map((e) => e.kind).lastIndexOf('delegation_resolved');
  t.ok(lastResolution < end, 'resolutions a run\'s end forces come before the turn end');
});

t.test('a stopped stream resolves nothing', async (t) => {
  t.same(resolutions(resolve([start(), call('a1', 'Task'), sessionEnd(true)])), []);
});
