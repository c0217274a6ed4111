import t from 'tap';
import { exitCodeFor } from '../lib/exit-code.js';

t.test('precedence: internal > input > gate > ok', async (t) => {
  t.equal(exitCodeFor({}), 0);
  t.equal(exitCodeFor({ gateFailed: true }), 3);
  t.equal(exitCodeFor({ gateFailed: true, inputErrors: 1 }), 2);
  t.equal(exitCodeFor({ gateFailed: true, inputErrors: 1, internalError: true }), 1);
  t.equal(exitCodeFor({ inputErrors: 0 }), 0);
});
