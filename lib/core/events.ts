// The canonical event: the one contract between every stage. Defined once as a
// zod schema so tests (and `--strict` users) can validate, while the hot path
// relies on the inferred type and hand-written guards in the normalizers.
import { z } from 'zod';

export const THREAD_KINDS = ['main', 'subagent', 'sidechain', 'orphan', 'internal'] as const;
export const TURN_END_REASONS = ['result', 'segment_end', 'session_end', 'user_prompt'] as const;

const envelope = {
  /** The format the event was read from: its dialect's name, or the part of it (Claude Code's `stream-json`, `session`). */
  source: z.string(),
  file: z.string(),
  /** 1-based line of the record this event came from; 0 when synthesized at a boundary. */
  line: z.number().int().nonnegative(),
  session: z.string(),
  segment: z.number().int().positive(),
  /** Arrival order within the session, from 1. */
  seq: z.number().int().positive(),
  thread: z.string(),
  /** The run the event belongs to, for sources with runs (traces.json, audit logs); else the session is the run. */
  run: z.string().optional(),
  uuid: z.string().optional(),
  ts: z.string().optional(),
  cwd: z.string().optional(),
};

const toolCallRef = z.object({
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  thread: z.string(),
  cwd: z.string().optional(),
});

export const canonicalEventSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('session_start'),
    ...envelope,
    tools: z.array(z.string()),
    model: z.string().optional(),
    version: z.string().optional(),
  }),
  z.object({
    kind: z.literal('catalog_add'),
    ...envelope,
    tools: z.array(z.string()),
    origin: z.enum(['init', 'deferred', 'config', 'catalog']),
    /** From a later `init`: the model and version (session_start has them when init came first). */
    model: z.string().optional(),
    version: z.string().optional(),
  }),
  z.object({
    kind: z.literal('turn_end'),
    ...envelope,
    reason: z.enum(TURN_END_REASONS),
    /**
     * What a run's `result` says (stream-json): its subtype and error flag;
     * newer versions add why it ended, its errors and the calls permission
     * was refused for. Its cost and tokens come as a `reported_usage` event
     * just before this one.
     */
    outcome: z
      .object({
        subtype: z.string().optional(),
        isError: z.boolean(),
        /** The run's final answer as the result states it (`result`, a string). */
        answer: z.string().optional(),
        terminalReason: z.string().optional(),
        /** The HTTP status of the API error that ended the run (2.1.x `api_error_status`, e.g. 429). */
        apiErrorStatus: z.number().int().optional(),
        errors: z.array(z.string()).optional(),
        permissionDenials: z.number().int().nonnegative().optional(),
      })
      .optional(),
  }),
  z.object({
    kind: z.literal('tool_call'),
    ...envelope,
    id: z.string(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
    /** API message id; calls sharing it were written in one assistant message. */
    messageId: z.string(),
    /** 0-based position of this call among the blocks of its message. */
    index: z.number().int().nonnegative(),
  }),
  z.object({
    kind: z.literal('tool_result'),
    ...envelope,
    id: z.string(),
    isError: z.boolean(),
    text: z.string(),
    /** The result's length in characters as the model read it, kept also when `text` was not (a lazy parse) if an analysis reads lengths (`Analysis.resultChars`); absent only when none does. */
    chars: z.number().int().nonnegative().optional(),
    /**
     * `text` is the result's UTF-8 bytes, one character each (latin1): the
     * lazy parse's cheaper read for analyses that only look for ASCII
     * patterns in it (`Analysis.resultText` says 'bytes'). `chars` is still
     * exact. A string found in it is `Buffer.from(s, 'latin1').toString('utf8')`.
     */
    bytes: z.boolean().optional(),
    meta: z.object({
      writeType: z.enum(['create', 'update']).optional(),
      /** A delegation's result: the subagent that ran it (Claude Code's agent id), and how many tools it called. */
      agentId: z.string().optional(),
      toolUses: z.number().int().nonnegative().optional(),
    }),
  }),
  z.object({
    kind: z.literal('thread_open'),
    ...envelope,
    spawnedBy: z.string().nullable(),
    threadKind: z.enum(THREAD_KINDS),
  }),
  z.object({
    kind: z.literal('thread_close'),
    ...envelope,
    threadKind: z.enum(THREAD_KINDS),
  }),
  z.object({
    kind: z.literal('delegation_resolved'),
    ...envelope,
    /** The Task/Agent call's tool_use id (also the subagent's thread id). */
    id: z.string(),
    name: z.string(),
    /**
     * found: first substantive call; none: the thread only delegated or did
     * nothing; failed: the call's result is an error and no subagent ran;
     * absent: never appeared.
     */
    outcome: z.enum(['found', 'none', 'failed', 'absent']),
    first: toolCallRef.optional(),
  }),
  z.object({
    kind: z.literal('usage'),
    ...envelope,
    messageId: z.string(),
    input: z.number(),
    output: z.number(),
    cacheRead: z.number(),
    cacheCreation: z.number(),
    /** Of `cacheCreation`, what was written to the 1-hour cache (priced higher than the default 5-minute one), when the source says. */
    cacheCreation1h: z.number().optional(),
    /** The model that answered, as the source names it. */
    model: z.string().optional(),
    /**
     * True when `output` is a snapshot taken while the message was still being
     * written (Claude Code records usage per content block, and before the
     * API's final `message_delta` unless the record has a `stop_reason`): a
     * lower bound. Absent: the figures are final.
     */
    partial: z.boolean().optional(),
  }),
  z.object({
    /**
     * What the agent itself reported it used: Claude Code's `result` (stream-json)
     * or `cost-state` record (session files, 2.1.278+). `costUsd` and `byModel`
     * are cumulative over the process, subagents and requests no transcript shows
     * included; `turn` (a result only) is the main thread's tokens in the turn the
     * result closes, with the final output counts.
     */
    kind: z.literal('reported_usage'),
    ...envelope,
    costUsd: z.number().nonnegative().optional(),
    byModel: z
      .record(z.string(), z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheCreation: z.number(), costUsd: z.number() }))
      .optional(),
    turn: z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheCreation: z.number() }).optional(),
    /** Some models' figures were not counts and were left out: `byModel` is not the whole. */
    dropped: z.boolean().optional(),
  }),
  z.object({
    /**
     * Any other block that entered the model's context, by its size only: an
     * assistant's thinking, a user's text or image, a prompt. With the calls,
     * results and text it accounts for every character of a context window.
     */
    kind: z.literal('context_block'),
    ...envelope,
    role: z.enum(['assistant', 'user']),
    /** The assistant message it belongs to. */
    messageId: z.string().optional(),
    chars: z.number().int().nonnegative(),
  }),
  z.object({
    kind: z.literal('assistant_text'),
    ...envelope,
    messageId: z.string(),
    text: z.string(),
  }),
  z.object({
    kind: z.literal('compaction'),
    ...envelope,
    trigger: z.string().optional(),
    preTokens: z.number().optional(),
    /** The context after it, when the metadata says (newer Claude Code writes `post_tokens` beside `preTokens`). */
    postTokens: z.number().optional(),
    /** A microcompaction: the tool results it cleared from the context (the rest stays). Absent for a full compaction. */
    compactedToolIds: z.array(z.string()).optional(),
  }),
  z.object({
    kind: z.literal('diagnostic'),
    ...envelope,
    code: z.string(),
    message: z.string(),
    /** How many things it is about, when it is about several (subagents whose transcripts are missing). */
    count: z.number().int().nonnegative().optional(),
  }),
  z.object({
    /** A whole input that holds no transcript to analyse (unlike a diagnostic, it makes the exit code 2). */
    kind: z.literal('input_error'),
    ...envelope,
    code: z.string(),
    message: z.string(),
  }),
  z.object({
    kind: z.literal('run_start'),
    ...envelope,
    run: z.string(),
    /** What the source records: audit logs have no per-call outcome and never log reads. */
    observes: z.object({ outcomes: z.boolean(), reads: z.boolean() }),
    /** The span that is the run itself (OpenTelemetry: the agent span its main thread's calls hang from), when the input has it. */
    span: z.string().optional(),
  }),
  z.object({
    kind: z.literal('run_end'),
    ...envelope,
    run: z.string(),
    /** The task the source names for the run, if any. */
    task: z.string().optional(),
    delivered: z.boolean().nullable(),
    /** A verifier's score for the run (Harbor's reward): grading decides `delivered` from it by its threshold (`reward_threshold`). */
    reward: z.number().optional(),
    /** Why the run ended outside the agent's control, when the source says (a Harbor trial's environment or verifier failed). */
    infra: z.string().optional(),
  }),
  z.object({
    kind: z.literal('session_end'),
    ...envelope,
    /** True when reading was stopped (SIGINT, idle timeout) rather than reaching the end. */
    stopped: z.boolean(),
    /** A followed file was cut short or replaced: if the same session is read again, that copy replaces this one. */
    restarted: z.boolean().optional(),
  }),
]);

export type CanonicalEvent = z.infer<typeof canonicalEventSchema>;
export type EventKind = CanonicalEvent['kind'];
export type EventOf<K extends EventKind> = Extract<CanonicalEvent, { kind: K }>;
export type Envelope = Pick<CanonicalEvent, 'source' | 'file' | 'line' | 'session' | 'segment' | 'seq' | 'thread' | 'run' | 'uuid' | 'ts' | 'cwd'>;
export type ThreadKind = (typeof THREAD_KINDS)[number];
export type ToolCallRef = z.infer<typeof toolCallRef>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event without its envelope: what a normalizer decides; the stage stamps the rest. */
export type EventBody = DistributiveOmit<CanonicalEvent, Exclude<keyof Envelope, 'run'>>;
/** Envelope fields a record may supply itself. */
export interface RecordMeta {
  run?: string | undefined;
  uuid?: string | undefined;
  ts?: string | undefined;
  cwd?: string | undefined;
}
