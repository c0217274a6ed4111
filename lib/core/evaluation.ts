// What an analysis judged, in the terms of OpenTelemetry's GenAI evaluation
// event, so any reporter (or reader) of evaluations names no analysis.

/**
 * One judged item as an OpenTelemetry GenAI evaluation result
 * (`gen_ai.evaluation.result`): what was judged, and the verdict as a name,
 * an optional score and label, and an explanation. `run` and `call` say
 * what it judges; a reporter links it to that trace and span when they are
 * OpenTelemetry ids.
 */
export interface Evaluation {
  /** `gen_ai.evaluation.name`: the metric, e.g. `tool_response_sufficiency`. */
  readonly name: string;
  readonly score?: number;
  readonly label?: string;
  readonly explanation?: string;
  /** Why no verdict could be given (`error.type`): the item was counted, not judged. */
  readonly error?: string;
  readonly session?: string;
  /** The run judged (a trace, for OpenTelemetry input). */
  readonly run?: string;
  /** The span of the run itself, when the input named it. */
  readonly runSpan?: string;
  /** The tool call judged (a span, for OpenTelemetry input). */
  readonly call?: string;
  readonly thread?: string;
  readonly task?: string;
  /** What the judged run cost: its tokens (input not counting cache reads and writes) and, when every model it used has a price, dollars. */
  readonly usage?: EvaluationUsage;
}

export interface EvaluationUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheCreation: number;
  readonly costUsd?: number;
  /** What the agent reported the run cost (Claude Code's `total_cost_usd`), beside ours. */
  readonly reportedCostUsd?: number;
  /** The output count is a lower bound (snapshots taken before messages ended); `costUsd` is then absent. */
  readonly lowerBound?: true;
}
