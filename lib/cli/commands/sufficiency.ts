// `agent-eval-stream [sufficiency] [options] [FILE|DIR|-]...`
import type { ParseArgsConfig } from 'node:util';
import { loadConfig } from '../../config.js';
import { discoverSessions } from '../../inputs.js';
import { readSessions } from '../../source.js';
import { stages } from '../../stages.js';
import { exitCodeFor } from '../../exit-code.js';
import type { ExitCode } from '../../exit-code.js';
import { DEFAULT_FAMILY, DEFAULT_PROBE } from '../../../transforms/sufficiency.js';
import { DEFAULT_MARKER } from '../../sufficiency/returned.js';
import { diagnosticsLog } from '../../../sinks/diagnostics-log.js';
import { openReporters, reporterSpecs } from '../reporters.js';
import { runPipeline } from '../run.js';
import type { CliIO } from '../io.js';
import { say } from '../io.js';
import { parseFlags, positiveInt, regexFlag } from '../flags.js';
import type { Command } from '../command.js';

const options = {
  reporter: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  probe: { type: 'string' },
  'probe-family': { type: 'string' },
  config: { type: 'string' },
  'max-line-bytes': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} satisfies NonNullable<ParseArgsConfig['options']>;

const usage = `Usage: agent-eval-stream [sufficiency] [options] [FILE|DIR|-]...

Tool-response sufficiency: for every probe call, what the agent did next.
Reads Claude Code stream-json (or session files) from files, directories
(walked for *.jsonl) or stdin (no input, or -). X.tN.jsonl is segment N of X.jsonl.

Options:
  --reporter NAME[=FILE]  text (default), json or ndjson; repeatable
  --json                  same as --reporter json
  --probe REGEX           probe tool names (default: ${DEFAULT_PROBE})
  --probe-family REGEX    a next call of these is "explore again" (default: ${DEFAULT_FAMILY})
  --config FILE           agent-eval.yaml to use (default: nearest one upward)
  --max-line-bytes N      longer lines become diagnostics (default: 64 MiB)
  -q, --quiet             no diagnostics on stderr
  -h, --help              this help
`;

async function run(argv: readonly string[], io: CliIO): Promise<ExitCode> {
  const { values, positionals } = parseFlags(argv, options);
  if (values.help) {
    io.stdout.write(usage);
    return 0;
  }
  const specs = reporterSpecs(values.reporter, values.json);
  const probeFlag = regexFlag('--probe', values.probe);
  const familyFlag = regexFlag('--probe-family', values['probe-family']);
  const maxLineBytes = values['max-line-bytes'] === undefined ? undefined : positiveInt('--max-line-bytes', values['max-line-bytes']);
  const { config } = await loadConfig(values.config, io.cwd);
  const suff = {
    probe: probeFlag ?? config.sufficiency?.probe ?? DEFAULT_PROBE,
    family: familyFlag ?? config.sufficiency?.family ?? DEFAULT_FAMILY,
    marker: config.sufficiency?.marker ?? DEFAULT_MARKER,
  };
  const sinkOpts = { sufficiency: { probe: suff.probe } };
  const targets = await openReporters(specs, sinkOpts, io);
  if (!values.quiet) targets.push({ transform: diagnosticsLog(), dest: io.stderr, end: false });

  const { sessions, problems } = await discoverSessions(positionals);
  let inputErrors = problems.length;
  for (const p of problems) say(io, p.message);
  const source = readSessions(sessions, {
    maxLineBytes,
    stdin: io.stdin,
    onInputError: (file, err) => {
      inputErrors++;
      say(io, `cannot read ${file}: ${err.code ?? err.message}`);
    },
  });
  await runPipeline(source, stages({ sufficiency: suff }), targets, io.signal);
  return exitCodeFor({ inputErrors });
}

export const sufficiencyCommand: Command = { name: 'sufficiency', summary: 'tool-response sufficiency of probe calls (the default)', run };
