// One session read from a live stream of lines (a Kafka partition), one line
// at a time, through the same stages as a file: its report when it ends.
// Every session has stages of its own, so what one keeps is bounded by its
// own open threads and calls, and a session dropped (a revoked partition)
// is simply let go.
import { fuse } from '../core/stage.js';
import type { StageLogic } from '../core/stage.js';
import type { PreRecord } from '../core/records.js';
import type { StreamItem } from '../core/items.js';
import { isAnalysisItem } from '../core/items.js';
import type { Configured } from '../analyses/types.js';
import { ReportBuilder } from '../report/index.js';
import type { Report } from '../report/index.js';
import { stageLogics } from '../../transforms/pipeline.js';

export class LiveSession {
  readonly #logic: StageLogic<unknown, unknown>;
  readonly #builder: ReportBuilder;
  readonly #key: string;
  readonly #file: string;
  #line = 0;
  #result = false;
  readonly #push = (item: unknown): void => {
    const it = item as StreamItem;
    this.#builder.add(it);
    // Claude Code's stream-json run ends with its result.
    if (!isAnalysisItem(it) && it.kind === 'turn_end' && it.reason === 'result' && it.thread === 'main') this.#result = true;
  };

  /** `key`: the session's key in the stream; `file`: where its lines come from, as diagnostics name it. */
  constructor(key: string, file: string, analyses: readonly Configured[]) {
    this.#key = key;
    this.#file = file;
    this.#logic = fuse(stageLogics({ analyses }));
    this.#builder = new ReportBuilder({ analyses, keepDetail: true });
    this.#step({ type: 'boundary', edge: 'segment_start', sessionKey: key, segment: 1, file, last: false, stopped: false });
  }

  #step(r: PreRecord): void {
    this.#logic.step(r, this.#push);
  }

  /** One line; true once the run's result has been read (the session is over). */
  line(text: string): boolean {
    this.#step({ type: 'line', file: this.#file, line: ++this.#line, text });
    return this.#result;
  }

  /** The session ends (its result, or idle): its report. */
  end(stopped = false): Report {
    this.#step({ type: 'boundary', edge: 'segment_end', sessionKey: this.#key, segment: 1, file: this.#file, last: true, stopped });
    this.#logic.end?.(this.#push);
    return this.#builder.build();
  }
}
