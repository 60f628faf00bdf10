import { type TString, type TStringOptions, Type } from 'typebox';
import { MULTILINE_KEYWORD } from './text';

/** A string field that may hold tabs and line breaks (see TextProblem in text.ts); every other string is one line. */
export const MultilineString = (options: TStringOptions = {}): TString =>
  Type.String({ ...options, [MULTILINE_KEYWORD]: true });
