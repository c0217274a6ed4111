// A Harbor trial's `result.json` (Harbor's TrialResult model), reduced to
// what judging the trial's run needs: its task, its name, the verifier's
// rewards, the exception that ended it, the agent. The file also holds the
// trial's whole config and, for RL runs, every token id and log-probability
// of the rollout, so it is read token by token and only those fields are
// kept: memory is the few fields, whatever the file's size.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { jsonParser } from 'stream-json/core/parser.js';
import type { JsonToken } from '../types.js';

/** The key a trial's record carries (a record no transcript writes). */
export const TRIAL_MARK = '#harbor_trial';

export interface TrialResult {
  id?: string;
  task_name?: string;
  trial_name?: string;
  /** The verifier's rewards by name (reward.txt gives `reward` alone); absent when the verifier did not run. */
  rewards?: Record<string, number>;
  exception_type?: string;
  exception_message?: string;
  agent?: string;
  agent_version?: string;
  model?: string;
}

/** The fields kept, by their path in the document. */
const KEPT: ReadonlyMap<string, Exclude<keyof TrialResult, 'rewards'>> = new Map([
  ['id', 'id'],
  ['task_name', 'task_name'],
  ['trial_name', 'trial_name'],
  ['exception_info.exception_type', 'exception_type'],
  ['exception_info.exception_message', 'exception_message'],
  ['agent_info.name', 'agent'],
  ['agent_info.version', 'agent_version'],
  ['agent_info.model_info.name', 'model'],
]);
const REWARDS = 'verifier_result.rewards';
/** An exception's message is kept to its start: a reason, not a traceback. */
const MAX_MESSAGE = 500;
/** Rewards kept per trial: a flat dict of a few metrics, never thousands. */
const MAX_REWARDS = 64;

/** Consumes a TrialResult document's tokens (its first key, `id`, already read) and keeps its fields. */
export class TrialResultPicker {
  /** Keys of the open objects, root first; an array is `[]` (nothing inside one is kept). */
  #path: string[] = [];
  #key: string | null;
  readonly picked: TrialResult = {};
  done = false;

  /** `firstKey`: the root's first key, when the caller read it to tell the document apart. */
  constructor(firstKey: string | null = null) {
    if (firstKey !== null) this.#path.push('');
    this.#key = firstKey;
  }

  token(t: JsonToken): void {
    if (this.done) return;
    switch (t.name) {
      case 'keyValue':
        this.#key = String(t.value);
        return;
      case 'startObject':
        this.#path.push(this.#path.length === 0 ? '' : this.#here());
        this.#key = null;
        return;
      case 'startArray':
        this.#path.push('[]');
        return;
      case 'endObject':
      case 'endArray':
        this.#path.pop();
        if (this.#path.length === 0) this.done = true;
        return;
      case 'stringValue':
      case 'numberValue':
        this.#value(t.name === 'numberValue' ? Number(t.value) : String(t.value));
        return;
      default:
    }
  }

  /** The path of the value the current key names, as `a.b.c`. */
  #here(): string {
    const parent = this.#path[this.#path.length - 1]!;
    if (parent === '[]' || this.#key === null) return '[]';
    return parent === '' ? this.#key : `${parent}.${this.#key}`;
  }

  #value(v: string | number): void {
    const parent = this.#path[this.#path.length - 1];
    if (parent === REWARDS && this.#key !== null && typeof v === 'number' && Number.isFinite(v)) {
      const r = (this.picked.rewards ??= {});
      // Own keys only: a reward named `__proto__` is a name like any other.
      if (Object.keys(r).length < MAX_REWARDS) Object.defineProperty(r, this.#key, { value: v, enumerable: true, writable: true, configurable: true });
      return;
    }
    const field = KEPT.get(this.#here());
    if (field === undefined || typeof v !== 'string') return;
    this.picked[field] = field === 'exception_message' ? v.slice(0, MAX_MESSAGE) : v;
  }
}

/** A TrialResult names its task and its trial: anything else whose first key is `id` is not one. */
export function isTrialResult(t: TrialResult): boolean {
  return t.task_name !== undefined && t.trial_name !== undefined;
}

/** The record a trial's result becomes, for the ATIF dialect's normalizer. */
export function trialRecord(t: TrialResult): Record<string, unknown> {
  return { [TRIAL_MARK]: t };
}

export function isTrialRecord(v: Record<string, unknown>): boolean {
  return typeof v[TRIAL_MARK] === 'object' && v[TRIAL_MARK] !== null;
}

type Tokenizer = (input: string | symbol) => { values: JsonToken[] } | symbol;
const END = Symbol.for('object-stream.none');

/** Reads a trial's result.json: its fields, or why it could not be read (missing, not JSON, not a TrialResult). */
export async function readTrialResult(path: string): Promise<TrialResult | { error: string }> {
  const parse = jsonParser({ packValues: true, streamValues: false }) as unknown as Tokenizer;
  const picker = new TrialResultPicker();
  const decoder = new StringDecoder('utf8');
  const feed = (out: ReturnType<Tokenizer>): void => {
    if (typeof out !== 'symbol') for (const t of out.values) picker.token(t);
  };
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream) {
      feed(parse(decoder.write(chunk as Buffer)));
      // The fields are read: the rest of the file (a rollout's token ids) is not.
      if (picker.done) break;
    }
    if (!picker.done) feed(parse(END));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { error: e.code !== undefined && e.syscall !== undefined ? `cannot read ${path}: ${e.code}` : `${path}: not JSON (${e.message})` };
  } finally {
    stream.destroy();
  }
  if (!isTrialResult(picker.picked)) return { error: `${path}: not a Harbor trial result (no task_name and trial_name)` };
  return picker.picked;
}
