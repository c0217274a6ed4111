// A config value that is a regular expression's source: checked when the
// config is read, so a bad one is a config error with its key path.
import { z } from 'zod';

export const regexSource = z.string().refine(
  (s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);
