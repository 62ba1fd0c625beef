// How strong a user's password must be: zxcvbn's estimate (@zxcvbn-ts, with its language-common
// dictionaries: common passwords, keyboard patterns, dates, repeats) at least MIN_SCORE of 4, with
// the user's own email and name counted as guessable. The refusal names the weakness found.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { validationFailed } from '../../shared/errors.ts';

/** 3 of 0-4: "safely unguessable", about 10^10 guesses, as zxcvbn's own guidance advises. */
export const MIN_PASSWORD_SCORE = 3;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

const zxcvbn = new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });

/** zxcvbn's warning keys (its English texts ship in another package) in our words. */
const WEAKNESSES: Record<string, string> = {
  straightRow: 'it is a straight row of keys',
  keyPattern: 'it is a short keyboard pattern',
  simpleRepeat: 'it repeats a character',
  extendedRepeat: 'it repeats a group of characters',
  sequences: 'it is a common sequence such as abc or 123',
  recentYears: 'it contains a recent year',
  dates: 'it contains a date',
  topTen: 'it is one of the ten most used passwords',
  topHundred: 'it is one of the hundred most used passwords',
  common: 'it is a commonly used password',
  similarToCommon: 'it is close to a commonly used password',
  wordByItself: 'it is a single word',
  namesByThemselves: 'it is a single name',
  commonNames: 'it is a common name',
  userInputs: 'it contains your email or name',
  pwned: 'it appeared in a data breach',
};

/** Throws a 422 on `field` naming why the password is too easy to guess. */
export function assertStrongPassword(password: string, userInputs: readonly string[], field = 'password'): void {
  const result = zxcvbn.check(password, [...userInputs]);
  if (result.score >= MIN_PASSWORD_SCORE) return;
  const why = (result.feedback.warning && WEAKNESSES[result.feedback.warning]) ?? 'it is too easy to guess';
  throw validationFailed([
    {
      path: field,
      message:
        `is too weak: ${why} (strength ${result.score} of 4, at least ${MIN_PASSWORD_SCORE} needed); ` +
        'a few unrelated words make a strong one',
    },
  ]);
}
