import t from 'tap';
import { exitCodeFor } from '../lib/core/exit-code.js';

t.test('precedence: internal > gate > input > ok', async (t) => {
  t.equal(exitCodeFor({}), 0);
  t.equal(exitCodeFor({ gateFailed: true }), 3);
  t.equal(exitCodeFor({ inputErrors: 1 }), 2);
  t.equal(exitCodeFor({ gateFailed: true, inputErrors: 1 }), 3, 'a failed gate is not hidden behind a damaged input');
  t.equal(exitCodeFor({ gateFailed: true, inputErrors: 1, internalError: true }), 1);
  t.equal(exitCodeFor({ inputErrors: 0 }), 0);
});
