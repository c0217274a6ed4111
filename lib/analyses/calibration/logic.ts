// Calibration as a stage: it reads grading's items, which must come before
// it in the stream (grading's stage runs first), and adds its own: a run's
// measures when grading decides the run, the pattern counts at the session's
// end. It reads no event itself, so it sees exactly the runs grading graded.
import type { StreamItem } from '../../core/items.js';
import { isAnalysisItem } from '../../core/items.js';
import type { Push, StageLogic } from '../../core/stage.js';
import type { GradeItem } from '../grade/items.js';
import { GRADE } from '../grade/items.js';
import { measureRun } from './measure.js';
import type { CalibrationItem } from './items.js';
import { CALIBRATION } from './items.js';

export class CalibrationLogic implements StageLogic<StreamItem, StreamItem> {
  step(item: StreamItem, push: Push<StreamItem>): void {
    push(item);
    if (!isAnalysisItem(item) || item.analysis !== GRADE) return;
    const it = item as GradeItem;
    let out: CalibrationItem | undefined;
    if (it.kind === 'result') out = { kind: 'result', analysis: CALIBRATION, session: it.session, data: { measure: measureRun(it.data.result) } };
    else if (it.kind === 'summary') out = { kind: 'summary', analysis: CALIBRATION, session: it.session, data: { patterns: it.data.patterns } };
    if (out) push(out);
  }
}
