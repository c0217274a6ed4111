// An arm's runs as the comparison reads them, from one report (of its
// transcripts, or saved): grading's runs — task, outcome, verdict, why it
// failed if not the agent — each with every analysis' figures for its
// session, read through the analysis contract (`runFigures`).
import type { Analysis, RunFigure } from '../analyses/types.js';
import type { Report } from '../report/index.js';
import { ANALYSES } from '../analyses/index.js';
import type { Verdict } from '../analyses/grade/verdicts.js';
import type { SessionContamination } from './contamination.js';

export interface ArmRun {
  readonly run: string;
  readonly task: string;
  readonly session: string;
  /** null: the outcome is not known. */
  readonly delivered: boolean | null;
  readonly verdict: Verdict;
  /** Why the run failed outside the agent's control, if it did. */
  readonly infra?: string;
  /** Excluded tools it used (contamination): the calls that reached the agent. */
  readonly contaminated?: readonly string[];
  /** MCP tools whose first calls came before their server had started. */
  readonly mcpColdStart?: readonly string[];
  /** Figures by key. */
  readonly figures: ReadonlyMap<string, RunFigure>;
}

/** What a figure is, whatever run it comes from. */
export interface FigureInfo {
  readonly key: string;
  readonly label: string;
  readonly better: 'lower' | 'higher';
  readonly kind: 'rate' | 'share' | 'value';
}

export interface ArmData {
  readonly runs: readonly ArmRun[];
  /** Figures in the order the analyses give them. */
  readonly figures: readonly FigureInfo[];
}

export function figureKind(f: RunFigure): FigureInfo['kind'] {
  return f.binary ? 'rate' : f.of !== undefined ? 'share' : 'value';
}

/** The runs of a report with grading in it; undefined when it has none. */
export function armData(report: Report, analyses: readonly Analysis[] = ANALYSES, contamination?: ReadonlyMap<string, SessionContamination>): ArmData | undefined {
  const grade = report.grade;
  if (!grade) return undefined;
  const bySession = new Map<string, RunFigure[]>();
  const figures = new Map<string, FigureInfo>();
  for (const a of analyses) {
    const section = report[a.key];
    if (section === undefined || !a.runFigures) continue;
    for (const s of a.runFigures(section)) {
      let list = bySession.get(s.session);
      if (!list) bySession.set(s.session, (list = []));
      for (const f of s.figures) {
        list.push(f);
        if (!figures.has(f.key)) figures.set(f.key, { key: f.key, label: f.label, better: f.better, kind: figureKind(f) });
      }
    }
  }
  const runs = grade.runs.map((r): ArmRun => {
    const own = new Map<string, RunFigure>();
    for (const f of bySession.get(r.session) ?? []) own.set(f.key, f);
    const used = contamination?.get(r.session)?.calls ?? [];
    return {
      run: r.run,
      task: r.task,
      session: r.session,
      delivered: r.delivered,
      verdict: r.verdict,
      ...(r.infra !== undefined ? { infra: r.infra } : {}),
      ...(used.length ? { contaminated: used } : {}),
      ...(r.mcpColdStart?.length ? { mcpColdStart: r.mcpColdStart } : {}),
      figures: own,
    };
  });
  return { runs, figures: [...figures.values()] };
}
