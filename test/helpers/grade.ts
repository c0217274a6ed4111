// Grading in tests: the real stages plus the grader, on text or files.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from '../../transforms/parse.js';
import { normalize } from '../../transforms/normalize.js';
import { demux } from '../../transforms/demux.js';
import { delegation } from '../../transforms/delegation.js';
import { grade } from '../../transforms/grade.js';
import { readSessions } from '../../lib/io/source.js';
import { ReportBuilder } from '../../lib/report/index.js';
import type { Report } from '../../lib/report/index.js';
import { builtInAnalyses } from '../../lib/analyses/index.js';
import type { StreamItem } from '../../lib/core/items.js';
import { parseConfig } from '../../lib/config/config.js';
import { gradeOptions } from '../../lib/analyses/grade/options.js';
import type { GradeFlags, GradeOptions } from '../../lib/analyses/grade/options.js';
import type { SessionInput } from '../../lib/io/inputs.js';
import { chunked } from './analyze.js';
import { lines } from '../../transforms/lines.js';

export function options(configYaml?: string, flags: GradeFlags = {}, configPath = '/cfg/agent-eval.yaml'): GradeOptions {
  const loaded = configYaml === undefined ? { config: {}, path: null } : { config: parseConfig(configYaml, configPath), path: configPath };
  return gradeOptions(loaded, flags);
}

export interface Graded {
  report: Report;
  items: StreamItem[];
}

async function collect(source: Readable, head: NodeJS.ReadWriteStream[], o: GradeOptions): Promise<Graded> {
  const items: StreamItem[] = [];
  const builder = new ReportBuilder({ analyses: builtInAnalyses({ sufficiency: false, grade: o }) });
  await pipeline([
    source,
    ...head,
    parse(),
    normalize(),
    demux(),
    delegation(),
    grade(o),
    new Writable({
      objectMode: true,
      write(item: StreamItem, _e, cb) {
        items.push(item);
        builder.add(item);
        cb();
      },
    }),
  ]);
  return { report: builder.build(), items };
}

/** One JSONL transcript given as text. */
export function gradeText(text: string, o: GradeOptions = options(), file = 'run.jsonl'): Promise<Graded> {
  return collect(Readable.from(chunked(Buffer.from(text), 4096)), [lines({ file })], o);
}

/** Files on disk, through the CLI's source (sniffing documents). */
export function gradeFiles(sessions: SessionInput[], o: GradeOptions = options()): Promise<Graded> {
  return collect(readSessions(sessions), [], o);
}

export const one = (path: string): SessionInput => ({ key: path, files: [path] });
