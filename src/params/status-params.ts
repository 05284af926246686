import { RawParams, readBoolean, readEnum } from './raw-params.js';

export interface StatusParams {
  format: 'json' | 'csv';
  prettyPrint: boolean;
  problems: string[];
}

export function parseStatusParams(queryString: string): StatusParams {
  const params = new RawParams(queryString, ['format', 'pretty_print']);
  return {
    format: readEnum(params, 'format', ['json', 'csv'] as const, 'json'),
    prettyPrint: readBoolean(params, 'pretty_print', true),
    problems: params.problems,
  };
}
