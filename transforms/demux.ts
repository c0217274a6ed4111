// Thread lifecycle as a stage (logic: lib/core/demux.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { Demuxer } from '../lib/core/demux.js';

export function demux(): Transform {
  return objectStage(new Demuxer());
}
