// A report's sufficiency figures for one probe tool, whichever shape the
// section has (one probe, or several): CodeGraph's explore by default. Its
// calls as an array, whether the report held them in memory or spilled.
import { probeSections } from '../../lib/analyses/sufficiency/report-section.js';
import type { ProbeSection, SufficiencySection } from '../../lib/analyses/sufficiency/report-section.js';
import type { SufficiencyCall } from '../../lib/analyses/sufficiency/summary.js';

export function probeOf(s: SufficiencySection | undefined, probe = 'codegraph_explore'): ProbeSection & { calls: SufficiencyCall[] } {
  const found = s === undefined ? undefined : probeSections(s).find((p) => p.probe === probe);
  if (!found) throw new Error(`no ${probe} section in ${JSON.stringify(s)?.slice(0, 200)}`);
  return { ...found, calls: [...found.calls] };
}
